// The writer Worker's side of view counting on PostgreSQL. Each batch is one statement
// (db/postgres/view-statements.ts): rows and rollup counts commit together or not at all: no fold mark, no
// catch-up at start. Each node adds to its own rollup rows (its slot), in one key order, so that nodes
// never deadlock and never queue on each other's counters (docs/decisions/0005).
// Daily unique visitors (docs/decisions/0010): the same statement adds the batch's new visitor hashes to
// view_visitors and counts on each human rollup row only those the set did not hold yet. Each node has its own
// salt, so a person who reaches two nodes the same day counts twice.
import type { SQL } from "bun";
import type { ClickTally } from "../db/ports.ts";
import {
  deleteVisitorsBefore,
  forgetBatchesBefore,
  storeViewBatch,
  userAgentIds,
  type RollupRow,
  type ViewColumns,
  type VisitorColumns,
} from "../db/postgres/view-statements.ts";
import { trimCrawlerFetches } from "../db/postgres/crawler-fetches.ts";
import { truncateIpMemo } from "../http/client-ip.ts";
import { crawlerFetchesOf, FetchTrimSchedule } from "./crawler-fetches.ts";
import { countVerification } from "./pending-rollups.ts";
import { announcements, FirstFetches } from "./first-fetches.ts";
import { recordFirstFetches } from "../db/postgres/first-fetches.ts";
import { DailyVisitors, dayNumberOf } from "./daily-visitors.ts";
import { countReferrers } from "./referrer-counts.ts";
import type { ViewBatch } from "./view-batch.ts";
import { sealBatch } from "./view-seal.ts";
import { BATCH_ID_MEMORY_MS } from "./view-spool.ts";

const DAY_MS = 86_400_000;
/** Distinct User-Agents whose ids are remembered; a flood of random agents only clears the memo. */
const AGENT_MEMO_LIMIT = 10_000;

const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class PgViewStore {
  private readonly agentIds = new Map<string, number>();
  private readonly visitors: DailyVisitors;
  /** Whether this store has dropped the hashes of the days before `visitors.today` (at its first batch). */
  private closedEarlierDays = false;
  private readonly trims = new FetchTrimSchedule();
  private readonly firsts = new FirstFetches();

  /** `now` tells the UTC day change (tests give their own clock); `clicks`: a batch's link.clicked counts, stored with it. */
  constructor(
    private readonly sql: SQL,
    private readonly slot: number,
    now: () => number,
    private readonly clicks: (batch: ViewBatch) => ClickTally | null = () => null,
  ) {
    this.visitors = new DailyVisitors(now);
  }

  /** After the first batch and at each UTC day change: the earlier days' hashes go, and their salts. */
  async closeEarlierDays(): Promise<void> {
    const newDay = this.visitors.newDay();
    if (newDay === null && this.closedEarlierDays) return;
    const today = newDay ?? this.visitors.today;
    await deleteVisitorsBefore(this.sql, dayName(today));
    await forgetBatchesBefore(this.sql, today * DAY_MS - BATCH_ID_MEMORY_MS);
    this.visitors.closeDaysBefore(today);
    this.closedEarlierDays = true;
  }

  /** The batch as the spool may keep it: no full address (views/view-seal.ts). */
  seal(batch: ViewBatch): ViewBatch {
    return sealBatch(batch, this.visitors);
  }

  /** Ids for the batch's User-Agents, adding the new ones (two nodes may meet the same new agent at once). */
  private async agentIdsFor(agents: string[]): Promise<Map<string, number>> {
    // Trimmed before the batch is looked at, so that every agent of the batch is in the memo afterwards.
    if (this.agentIds.size > AGENT_MEMO_LIMIT) this.agentIds.clear();
    const unknown = [...new Set(agents)].filter((agent) => !this.agentIds.has(agent));
    if (unknown.length > 0) {
      for (const row of await userAgentIds(this.sql, unknown)) this.agentIds.set(row.text, row.id);
    }
    return this.agentIds;
  }

  /** Stores the batch under id (slot, `seq`), unless a batch with that id is stored already. */
  async write(b: ViewBatch, seq: number): Promise<void> {
    if (b.size === 0) return;
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    const agentTexts = Array.from(b.userAgent.subarray(0, b.size), (index) => b.strings[index]!);
    const agentIds = await this.agentIdsFor(agentTexts);

    const rollups = new Map<string, RollupRow>();
    const columns: ViewColumns = {
      userId: [],
      linkId: [],
      ip: [],
      agent: [],
      attribution: [],
      isBot: [],
      platform: [],
      at: [],
      scan: [],
      verification: [],
    };
    // The batch's visitor hashes the set may not hold yet, once each.
    const visitors: VisitorColumns = { day: [], linkId: [], hash: [] };
    this.visitors.startBatch(b.strings);
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      const isBot = b.isBot[i] === 1;
      const scan = !isBot && b.scan[i] === 1;
      const platform = text(b.platform[i]!);
      const address = b.strings[b.address[i]!]!;
      columns.userId.push(b.userId[i]!);
      columns.linkId.push(linkId);
      // Stored truncated (IPv4 /24, IPv6 /48); the full address only goes into the hash (a sealed batch's
      // addresses are truncated already: truncating again changes nothing).
      columns.ip.push(truncateIpMemo(address) || null);
      columns.scan.push(scan);
      columns.agent.push(agentIds.get(agentTexts[i]!)!);
      columns.attribution.push(text(b.attribution[i]!));
      columns.isBot.push(isBot);
      columns.platform.push(platform);
      columns.at.push(b.at[i]!);
      columns.verification.push(b.verification[i]!);
      const dayNumber = dayNumberOf(b.at[i]!);
      const day = dayName(dayNumber);
      const key = `${linkId}\u0000${day}\u0000${platform ?? ""}`;
      let row = rollups.get(key);
      if (!row)
        rollups.set(
          key,
          (row = {
            linkId,
            day,
            platform: platform ?? "",
            human: 0,
            bot: 0,
            scans: 0,
            lastAt: b.at[i]!,
            verified: 0,
            unverified: 0,
            unverifiable: 0,
          }),
        );
      else if (b.at[i]! > row.lastAt) row.lastAt = b.at[i]!;
      if (isBot) {
        row.bot++;
        countVerification(row, b.verification[i]!);
      } else {
        row.human++;
        if (scan) row.scans++;
        const hash = this.visitors.visitOf(b, i, dayNumber);
        if (hash !== null) {
          visitors.day.push(day);
          visitors.linkId.push(linkId);
          visitors.hash.push(hash);
        }
      }
    }
    // One lock order on every node: by link, day, platform.
    const sorted = [...rollups.values()].sort(
      (x, y) =>
        x.linkId - y.linkId ||
        (x.day < y.day ? -1 : x.day > y.day ? 1 : 0) ||
        (x.platform < y.platform ? -1 : x.platform > y.platform ? 1 : 0),
    );
    const fetches = crawlerFetchesOf(b);
    await storeViewBatch(
      this.sql,
      this.slot,
      seq,
      columns,
      visitors,
      sorted,
      this.clicks(b),
      countReferrers(b),
      fetches,
    ).catch((error: unknown) => {
      // The visitors it sent may not be in the set: ask the set again next time.
      this.visitors.forget();
      throw error;
    });
    const firsts = this.firsts.candidates(fetches);
    await recordFirstFetches(this.sql, firsts, announcements);
    this.firsts.remember(firsts);
    const due = this.trims.due(fetches);
    await trimCrawlerFetches(this.sql, due.linkIds, due.before);
    await this.closeEarlierDays();
  }
}
