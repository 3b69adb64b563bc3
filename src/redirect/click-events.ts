// link.clicked webhook events, from the view writer: the stored batches are counted per link (people, QR scans,
// crawlers by platform: counts only, never an address, a User-Agent or a hash of either) for the links of users
// subscribed to link.clicked, and every WEBHOOK_CLICK_WINDOW_MS each counted link gets one event, all written
// to the outbox in one transaction. Never on the /go path. Counts wait in memory until their window closes: a
// crash loses the open window's events (the views themselves are stored; docs/decisions/0019).
import type { ClickOutbox, OutboxEvent } from "../db/ports.ts";
import { eventBody, newEventId } from "../webhooks/record-event.ts";
import type { WebhookEventData } from "../webhooks/wire.ts";
import type { ViewBatch } from "./view-batch.ts";

type LinkClicks = { userId: number; people: number; qrScans: number; crawlers: Record<string, number> };

export class ClickEvents {
  private counts = new Map<number, LinkClicks>();
  private from: number;
  /** Users subscribed to link.clicked, as of the window's start (null: not read yet). */
  private subscribers: Set<number> | null = null;

  constructor(
    private readonly outbox: ClickOutbox,
    private readonly now: () => number = Date.now,
  ) {
    this.from = now();
  }

  /** Counts a stored batch's views of subscribers' links. */
  count(b: ViewBatch): void {
    const subscribers = this.subscribers;
    if (!subscribers || subscribers.size === 0) return;
    for (let i = 0; i < b.size; i++) {
      const userId = b.userId[i]!;
      if (!subscribers.has(userId)) continue;
      const linkId = b.linkId[i]!;
      let link = this.counts.get(linkId);
      if (!link) this.counts.set(linkId, (link = { userId, people: 0, qrScans: 0, crawlers: {} }));
      if (b.isBot[i]) {
        const platform = b.platform[i]! < 0 ? "other" : b.strings[b.platform[i]!]!;
        link.crawlers[platform] = (link.crawlers[platform] ?? 0) + 1;
      } else {
        link.people++;
        link.qrScans += b.scan[i]!;
      }
    }
  }

  /** Ends the window: one event per counted link, in one transaction; then reads who subscribes now. */
  async closeWindow(): Promise<void> {
    const counts = this.counts;
    const from = this.from;
    const to = this.now();
    this.counts = new Map();
    this.from = to;
    if (counts.size > 0) {
      const slugs = await this.outbox.linkSlugs([...counts.keys()]);
      const events: OutboxEvent[] = [];
      for (const [linkId, link] of counts) {
        const linkSlug = slugs.get(linkId);
        if (linkSlug === undefined) continue;
        const data: WebhookEventData<"link.clicked"> = {
          id: linkId,
          linkSlug,
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          people: link.people,
          qrScans: link.qrScans,
          crawlers: link.crawlers,
        };
        events.push({ userId: link.userId, eventId: newEventId(), type: "link.clicked", payload: eventBody("link.clicked", to, data), at: to });
      }
      await this.outbox.record(events);
    }
    this.subscribers = await this.outbox.subscribers("link.clicked");
  }
}
