// link.clicked webhook events, from the view writer: each stored batch is counted per link (people, QR scans,
// crawlers by platform: counts only, never an address, a User-Agent or a hash of either) for the links of users
// subscribed to link.clicked, and the counts are stored in the batch's own transaction (`tally`, called by the view
// store). Every WEBHOOK_CLICK_WINDOW_MS the window closes: in one transaction its stored counts are taken and each
// counted link gets one event in the outbox. Never on the /go path. A crash loses no stored count: the next start
// closes the window it left open (docs/decisions/0026).
import type { ClickOutbox, ClickTally, CountedLink, OutboxEvent, StoredClickCount } from "../db/ports.ts";
import { eventBody, newEventId } from "../webhooks/record-event.ts";
import type { WebhookEventData } from "../webhooks/wire.ts";
import type { ViewBatch } from "./view-batch.ts";

const PEOPLE = "people";
const QR = "qr";
const CRAWLER = "crawler:";

export class ClickEvents {
  /** When the open window began: stored with its counts, so a window a crash left open keeps its start. */
  private from: number;
  /** Members of workspaces subscribed to link.clicked, as of the window's start (null: not read yet). */
  private subscribers: Set<number> | null = null;

  constructor(private readonly now: () => number) {
    this.from = now();
  }

  /** A batch's counts of subscribers' links, per link and bucket (null: none), to store with the batch. */
  tally(b: ViewBatch): ClickTally | null {
    const subscribers = this.subscribers;
    if (!subscribers || subscribers.size === 0) return null;
    const counts = new Map<string, { linkId: number; userId: number; bucket: string; n: number }>();
    const add = (linkId: number, userId: number, bucket: string) => {
      const key = `${linkId} ${bucket}`;
      const count = counts.get(key);
      if (count) count.n++;
      else counts.set(key, { linkId, userId, bucket, n: 1 });
    };
    for (let i = 0; i < b.size; i++) {
      const userId = b.userId[i]!;
      if (!subscribers.has(userId)) continue;
      const linkId = b.linkId[i]!;
      if (b.isBot[i]) add(linkId, userId, CRAWLER + (b.platform[i]! < 0 ? "other" : b.strings[b.platform[i]!]!));
      else {
        add(linkId, userId, PEOPLE);
        if (b.scan[i]) add(linkId, userId, QR);
      }
    }
    if (counts.size === 0) return null;
    const tally: ClickTally = { linkId: [], userId: [], bucket: [], n: [], since: this.from };
    for (const count of counts.values()) {
      tally.linkId.push(count.linkId);
      tally.userId.push(count.userId);
      tally.bucket.push(count.bucket);
      tally.n.push(count.n);
    }
    return tally;
  }

  /** Ends the window: one event per counted link, in one transaction with taking the counts; then reads who subscribes now. */
  async closeWindow(outbox: ClickOutbox): Promise<void> {
    const to = this.now();
    await outbox.closeWindow((counts, links) => clickedEvents(counts, links, to));
    this.from = to;
    this.subscribers = await outbox.subscribers("link.clicked");
  }
}

/**
 * One link.clicked event per counted link that still exists, for the window that ends at `to`, to the endpoints of
 * the link's workspace (never its creator's other workspaces).
 */
function clickedEvents(counts: StoredClickCount[], counted: Map<number, CountedLink>, to: number): OutboxEvent[] {
  const links = new Map<number, { since: number; people: number; qrScans: number; crawlers: Record<string, number> }>();
  for (const { linkId, bucket, n, since } of counts) {
    let link = links.get(linkId);
    if (!link) links.set(linkId, (link = { since, people: 0, qrScans: 0, crawlers: {} }));
    link.since = Math.min(link.since, since);
    if (bucket === PEOPLE) link.people += n;
    else if (bucket === QR) link.qrScans += n;
    else link.crawlers[bucket.slice(CRAWLER.length)] = n;
  }
  const events: OutboxEvent[] = [];
  for (const [linkId, link] of links) {
    const found = counted.get(linkId);
    if (found === undefined) continue;
    const linkSlug = found.slug;
    const data: WebhookEventData<"link.clicked"> = {
      id: linkId,
      linkSlug,
      from: new Date(link.since).toISOString(),
      to: new Date(to).toISOString(),
      people: link.people,
      qrScans: link.qrScans,
      crawlers: link.crawlers,
    };
    events.push({
      workspaceId: found.workspaceId,
      eventId: newEventId(),
      type: "link.clicked",
      payload: eventBody("link.clicked", to, data),
      at: to,
    });
  }
  return events;
}
