// The writer Worker's side of view counting. Every batch's raw rows are committed at once; the rollups that
// every read uses are folded in every few seconds, or as soon as the writer is idle or asked to (flush, stop).
// Folding less often is what makes counting cheap under load: a commit rewrites every rollup page it touches,
// and a second of traffic over thousands of links touches them all (docs/decisions/0001).
// The rollups record the last view id they count (db/sqlite/view-statements.ts), so at start the store folds in
// whatever rows a crash left beyond that mark; the counts waiting for a fold are views/pending-rollups.ts.
// Daily unique visitors (docs/decisions/0010): a person's first view of a link on a day adds their salted hash
// to view_visitors in the batch's own transaction, so the set is exactly as durable as the rows; a link's
// unique_humans for a day equals its number of hashes that day, which is how a recount restores it.
import type { Database } from "bun:sqlite";
import { prepareReferrerRollups, prepareStoredReferrers } from "../db/sqlite/referrer-rollups.ts";
import type { ReferrerCount } from "../db/referrer-buckets.ts";
import {
  prepareViewStatements,
  ROWS_PER_INSERT,
  VIEW_COLUMNS,
  type ViewStatements,
} from "../db/sqlite/view-statements.ts";
import { truncateIpMemo } from "../http/client-ip.ts";
import { DailyVisitors } from "./daily-visitors.ts";
import { LinkIdBits, type LinkIds } from "./link-id-bits.ts";
import { countReferrer, countVerification, PendingRollups } from "./pending-rollups.ts";
import { addReferrerCounts, batchReferrerBuckets, referrerBucket } from "./referrer-counts.ts";
import type { ViewBatch } from "./view-batch.ts";
import { sealBatch } from "./view-seal.ts";
import { BATCH_ID_MEMORY_MS } from "./view-spool.ts";

/** How far the rollups may lag behind the stored rows while views keep coming. */
const ROLLUP_LAG_MS = 2000;
const DAY_MS = 86_400_000;
/** Distinct User-Agents whose ids are remembered; a flood of random agents only clears the memo. */
const AGENT_MEMO_LIMIT = 10_000;

/**
 * The connection should run with foreign_keys off: each batch checks its links' existence once instead of
 * SQLite checking every row (a view of a link whose owner was removed meanwhile is dropped).
 */
export class ViewStore {
  /** Counted in stored rows but not yet in the rollups. */
  private readonly pending = new PendingRollups();
  /** A write failed after counting: the pending counts are unsure, so the next fold counts the stored rows. */
  private recount = false;
  private lastFold = performance.now();
  /**
   * Views get ids from here, never reused: rows above the rollup mark must be new ones, even after the newest
   * rows were deleted with their owner.
   */
  private nextViewId: number;
  private readonly agentIds = new Map<string, number>();
  private readonly dayNames = new Map<number, string>();
  /**
   * Links known to exist, trusted until another connection commits (SQLite's data_version changes): until
   * then nobody can have deleted one. Under /go traffic alone nothing else commits, which saves a lookup per
   * link per batch.
   */
  private readonly knownLive = new LinkIdBits();
  private dataVersion = -1;
  private readonly statements: ViewStatements;
  private readonly transaction: (work: () => void) => void;
  private readonly visitors: DailyVisitors;
  private readonly addReferrers: ReturnType<typeof prepareReferrerRollups>;
  private readonly storedReferrers: ReturnType<typeof prepareStoredReferrers>;

  /**
   * `now` tells the UTC day change (tests give their own clock); `inBatch` runs in each stored batch's transaction,
   * `inFold` in each fold's (and at start, after a crash's rows are folded in).
   */
  constructor(
    sqlite: Database,
    now: () => number,
    private readonly inBatch: (batch: ViewBatch) => void = () => {},
    private readonly inFold: () => void = () => {},
  ) {
    this.visitors = new DailyVisitors(now);
    this.statements = prepareViewStatements(sqlite);
    this.addReferrers = prepareReferrerRollups(sqlite);
    this.storedReferrers = prepareStoredReferrers(sqlite);
    this.transaction = sqlite.transaction((work: () => void) => work()).immediate as (work: () => void) => void;
    this.nextViewId = this.catchUp() + 1;
  }

  /**
   * Folds in the rows a crash left beyond the mark and drops the visitor hashes of days before today (their salt
   * went with the last process); returns the highest view id ever given.
   */
  private catchUp(): number {
    let highest = 0;
    this.transaction(() => {
      highest = Math.max(this.statements.mark.get()!.lastViewId, this.statements.newestView.get()!.id ?? 0);
      this.foldStoredRows(highest);
      this.inFold();
      this.statements.closeDaysBefore.run(this.dayName(this.visitors.today));
    });
    return highest;
  }

  /** The batch as the spool may keep it: no full address (views/view-seal.ts). */
  seal(batch: ViewBatch): ViewBatch {
    return sealBatch(batch, this.visitors);
  }

  /** Whether stored rows are waiting to be folded into the rollups. */
  get behind(): boolean {
    return !this.pending.empty || this.recount;
  }

  /**
   * Stores a batch's rows in one transaction with its id `seq`, if given (a batch stored under it adds nothing),
   * folding the rollups in with them when asked to or when they have lagged long enough.
   */
  write(batch: ViewBatch | null, fold: boolean, seq?: number): void {
    const learnedAgents = new Map<string, number>();
    let nextViewId = this.nextViewId;
    // At the UTC day change the earlier days' hashes go, once the rollups count them: fold now.
    const newDay = this.visitors.newDay();
    const folding = fold || newDay !== null || performance.now() - this.lastFold >= ROLLUP_LAG_MS;

    try {
      this.transaction(() => {
        // Past rows another server on the same data directory wrote meanwhile (the transaction holds the write
        // lock, so none can slip in between): ids never collide and only grow.
        nextViewId = Math.max(nextViewId, (this.statements.newestView.get()!.id ?? 0) + 1);
        if (batch && (seq === undefined || this.statements.recordBatch.run(seq).changes > 0)) {
          nextViewId = this.insertRows(batch, nextViewId, learnedAgents);
          this.inBatch(batch);
        }
        if (folding) this.inFold();
        if (folding && this.recount) this.foldStoredRows(nextViewId - 1);
        else if (folding) {
          // Referrer counts wait with the others: one upsert per link, day and host a fold, not a batch.
          const referrerRows: ReferrerCount[] = [];
          this.pending.fold(
            (linkIds) => this.liveOf(linkIds),
            (
              dayNumber,
              { linkId, platform, human, bot, at, scans, uniques, host, hostViews, moreHosts, ...checked },
            ) => {
              const day = this.dayName(dayNumber);
              const { verified, unverified, unverifiable } = checked;
              const counts = [human, bot, at, scans, uniques, verified, unverified, unverifiable] as const;
              this.statements.addToRollup.run(linkId, day, platform, ...counts);
              if (hostViews > 0) referrerRows.push({ linkId, day, host, human: hostViews });
              for (const [other, n] of moreHosts ?? []) referrerRows.push({ linkId, day, host: other, human: n });
            },
          );
          this.addReferrers(referrerRows);
          this.statements.setMark.run(nextViewId - 1);
        }
        if (newDay !== null) {
          this.statements.closeDaysBefore.run(this.dayName(newDay));
          this.statements.forgetBatchesBefore.run(newDay * DAY_MS - BATCH_ID_MEMORY_MS);
        }
      });
    } catch (error) {
      // The pending counts took in rows that were rolled back; the stored rows beyond the mark are the truth,
      // so the next fold counts those instead.
      this.recount = true;
      this.pending.clear();
      // The visitors it sent to the set were rolled back too.
      this.visitors.forget();
      throw error;
    }

    this.nextViewId = nextViewId;
    if (this.agentIds.size + learnedAgents.size > AGENT_MEMO_LIMIT) this.agentIds.clear();
    for (const [agent, id] of learnedAgents) this.agentIds.set(agent, id);
    if (newDay !== null) this.visitors.closeDaysBefore(newDay);
    if (folding) {
      this.pending.clear();
      this.recount = false;
      this.lastFold = performance.now();
    }
  }

  /** Folds the stored rows beyond the mark into the rollups and the referrer rollups (a start, or after a failed write). */
  private foldStoredRows(upTo: number): void {
    const counts = new Map<string, ReferrerCount>();
    const stored = this.storedReferrers(this.statements.mark.get()!.lastViewId, upTo);
    addReferrerCounts(
      counts,
      stored.map(({ linkId, day, referrer, human }) => ({ linkId, day, host: referrerBucket(referrer), human })),
    );
    this.addReferrers([...counts.values()]);
    this.statements.foldStoredRows(upTo);
  }

  /**
   * Stores the rows of the batch's live links and counts them into the pending rollups, a person's first view
   * of the day also into the day's visitors; returns the next id.
   */
  private insertRows(b: ViewBatch, firstId: number, learnedAgents: Map<string, number>): number {
    const { findAgent, addAgent, insertView, insertViews, addVisitor } = this.statements;
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    // Stored truncated (IPv4 /24, IPv6 /48), once per distinct address of the batch.
    const storedIpAt = new Map<number, string | null>();
    const storedIp = (index: number) => {
      let ip = storedIpAt.get(index);
      if (ip === undefined) storedIpAt.set(index, (ip = truncateIpMemo(b.strings[index]!) || null));
      return ip;
    };
    this.visitors.startBatch(b.strings);
    /** Whether this is the visitor's first view of the link that day: then its hash joins the set. */
    const isNewVisitor = (day: number, linkId: number, i: number) => {
      const hash = this.visitors.visitOf(b, i, day);
      return hash !== null && addVisitor.run(this.dayName(day), linkId, hash).changes > 0;
    };
    const live = this.liveOf(b.linkId.subarray(0, b.size));
    // The batch's User-Agents, by string index: looked up (or added) once each.
    const agentIdAt = new Map<number, number>();
    const agentId = (index: number) => {
      let id = agentIdAt.get(index);
      if (id === undefined) {
        const agent = b.strings[index]!;
        id = this.agentIds.get(agent) ?? learnedAgents.get(agent);
        if (id === undefined) learnedAgents.set(agent, (id = (findAgent.get(agent) ?? addAgent.get(agent)!).id));
        agentIdAt.set(index, id);
      }
      return id;
    };

    // The batch's platforms, by string index: coded once each.
    const platformCodeAt = new Map<number, number>([[-1, 0]]);
    const platformCode = (index: number) => {
      let code = platformCodeAt.get(index);
      if (code === undefined) platformCodeAt.set(index, (code = this.pending.platformCode(b.strings[index]!)));
      return code;
    };

    const referrerBucketOf = batchReferrerBuckets(b);
    const rows: (string | number | null)[] = [];
    let id = firstId;
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      if (!live.has(linkId)) continue;
      const at = b.at[i]!;
      const isBot = b.isBot[i]!;
      const platform = b.platform[i]!;
      const scan = b.scan[i]!;
      rows.push(
        id++,
        b.userId[i]!,
        linkId,
        storedIp(b.address[i]!),
        agentId(b.userAgent[i]!),
        text(b.attribution[i]!),
        isBot,
        text(platform),
        at,
        scan,
        b.verification[i]!,
      );
      if (rows.length === ROWS_PER_INSERT * VIEW_COLUMNS.length) {
        insertViews.run(...rows);
        rows.length = 0;
      }
      const day = Math.floor(at / DAY_MS);
      const cell = this.pending.count(day, linkId, platformCode(platform), isBot, at);
      if (isBot) {
        countVerification(cell, b.verification[i]!);
        continue;
      }
      cell.scans += scan;
      countReferrer(cell, referrerBucketOf(b.attribution[i]!));
      if (isNewVisitor(day, linkId, i)) cell.uniques++;
    }
    for (let row = 0; row < rows.length; row += VIEW_COLUMNS.length)
      insertView.run(...rows.slice(row, row + VIEW_COLUMNS.length));
    return id;
  }

  /** Which of these link ids still exist: asked of SQLite only for those not known to since the last foreign commit. */
  private liveOf(linkIds: ArrayLike<number>): LinkIds {
    const version = this.statements.dataVersion.get()!.data_version;
    if (version !== this.dataVersion) {
      this.knownLive.clear();
      this.dataVersion = version;
    }
    const unknown = new Set<number>();
    // Indexed, not for…of: a typed array's iterator cost a twentieth of the writer's time (a CPU profile).
    for (let i = 0; i < linkIds.length; i++) if (!this.knownLive.has(linkIds[i]!)) unknown.add(linkIds[i]!);
    if (unknown.size > 0)
      for (const row of this.statements.liveLinks.all(JSON.stringify([...unknown]))) this.knownLive.add(row.id);
    return this.knownLive;
  }

  private dayName(day: number): string {
    let name = this.dayNames.get(day);
    if (name === undefined) this.dayNames.set(day, (name = new Date(day * DAY_MS).toISOString().slice(0, 10)));
    return name;
  }
}
