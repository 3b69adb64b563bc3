// The writer Worker's side of view counting on PostgreSQL. Each batch is one statement: its rows go in
// through unnest() arrays (a fixed number of parameters whatever the batch size), and its rollup counts are
// upserted in the same statement, so rows and counts commit together or not at all: no fold mark, no
// catch-up at start. Each node adds to its own rollup rows (its slot), in one key order, so that nodes
// never deadlock and never queue on each other's counters (docs/decisions/0005).
// Daily unique visitors (docs/decisions/0010): the same statement adds the batch's new visitor hashes to
// view_visitors and counts on each human rollup row only those the set did not hold yet. Each node has its own
// salt, so a person who reaches two nodes the same day counts twice.
import type { SQL } from "bun";
import { truncateIpMemo } from "../http/client-ip.ts";
import { DailyVisitors, dayNumberOf } from "./daily-visitors.ts";
import type { ViewBatch } from "./view-batch.ts";

const DAY_MS = 86_400_000;
/** Distinct User-Agents whose ids are remembered; a flood of random agents only clears the memo. */
const AGENT_MEMO_LIMIT = 10_000;

type RollupRow = { linkId: number; day: string; platform: string; human: number; bot: number; scans: number; lastAt: number };

const dayName = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export class PgViewStore {
  private readonly agentIds = new Map<string, number>();
  private readonly visitors: DailyVisitors;
  /** Whether this store has dropped the hashes of the days before `visitors.today` (at its first batch). */
  private closedEarlierDays = false;

  /** `now` tells the UTC day change (tests give their own clock). */
  constructor(
    private readonly sql: SQL,
    private readonly slot: number,
    now: () => number = Date.now,
  ) {
    this.visitors = new DailyVisitors(now);
  }

  /** After the first batch and at each UTC day change: the earlier days' hashes go, and their salts. */
  async closeEarlierDays(): Promise<void> {
    const newDay = this.visitors.newDay();
    if (newDay === null && this.closedEarlierDays) return;
    const today = newDay ?? this.visitors.today;
    await this.sql`DELETE FROM view_visitors WHERE day < ${dayName(today)}`;
    this.visitors.closeDaysBefore(today);
    this.closedEarlierDays = true;
  }

  /** Ids for the batch's User-Agents, adding the new ones (two nodes may meet the same new agent at once). */
  private async agentIdsFor(agents: string[]): Promise<Map<string, number>> {
    // Trimmed before the batch is looked at, so that every agent of the batch is in the memo afterwards.
    if (this.agentIds.size > AGENT_MEMO_LIMIT) this.agentIds.clear();
    const unknown = [...new Set(agents)].filter((agent) => !this.agentIds.has(agent));
    if (unknown.length > 0) {
      const list = this.sql.array(unknown, "TEXT");
      await this.sql`INSERT INTO user_agents (text) SELECT unnest(${list}::text[]) ON CONFLICT (text) DO NOTHING`;
      const rows: Array<{ id: number; text: string }> = await this.sql`SELECT id, text FROM user_agents WHERE text = ANY(${list}::text[])`;
      for (const row of rows) this.agentIds.set(row.text, row.id);
    }
    return this.agentIds;
  }

  async write(b: ViewBatch): Promise<void> {
    if (b.size === 0) return;
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    const agentTexts = Array.from(b.userAgent.subarray(0, b.size), (index) => b.strings[index]!);
    const agentIds = await this.agentIdsFor(agentTexts);

    const rollups = new Map<string, RollupRow>();
    const columns = { userId: [] as number[], linkId: [] as number[], ip: [] as (string | null)[], agent: [] as number[], attribution: [] as (string | null)[], isBot: [] as boolean[], platform: [] as (string | null)[], at: [] as number[], scan: [] as boolean[] };
    // The batch's visitor hashes the set may not hold yet, once each.
    const visitors = { day: [] as string[], linkId: [] as number[], hash: [] as number[] };
    this.visitors.startBatch(b.strings);
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      const isBot = b.isBot[i] === 1;
      const scan = !isBot && b.scan[i] === 1;
      const platform = text(b.platform[i]!);
      const address = b.strings[b.address[i]!]!;
      columns.userId.push(b.userId[i]!);
      columns.linkId.push(linkId);
      // Stored truncated (IPv4 /24, IPv6 /48); the full address only goes into the hash.
      columns.ip.push(truncateIpMemo(address) || null);
      columns.scan.push(scan);
      columns.agent.push(agentIds.get(agentTexts[i]!)!);
      columns.attribution.push(text(b.attribution[i]!));
      columns.isBot.push(isBot);
      columns.platform.push(platform);
      columns.at.push(b.at[i]!);
      const dayNumber = dayNumberOf(b.at[i]!);
      const day = dayName(dayNumber);
      const key = `${linkId}\u0000${day}\u0000${platform ?? ""}`;
      let row = rollups.get(key);
      if (!row) rollups.set(key, (row = { linkId, day, platform: platform ?? "", human: 0, bot: 0, scans: 0, lastAt: b.at[i]! }));
      else if (b.at[i]! > row.lastAt) row.lastAt = b.at[i]!;
      if (isBot) row.bot++;
      else {
        row.human++;
        if (scan) row.scans++;
        const hash = this.visitors.firstVisit(dayNumber, linkId, b.address[i]!, b.userAgent[i]!);
        if (hash !== null) {
          visitors.day.push(day);
          visitors.linkId.push(linkId);
          visitors.hash.push(hash);
        }
      }
    }
    // One lock order on every node: by link, day, platform.
    const sorted = [...rollups.values()].sort((x, y) => x.linkId - y.linkId || (x.day < y.day ? -1 : x.day > y.day ? 1 : 0) || (x.platform < y.platform ? -1 : x.platform > y.platform ? 1 : 0));
    const a = this.sql.array.bind(this.sql);
    // A view of a link deleted meanwhile (with its owner) is dropped, as on SQLite: the JOIN / EXISTS.
    await this.sql`
      WITH stored AS (
        INSERT INTO views (user_id, link_id, ip, user_agent_id, attribution, is_bot, platform, timestamp, scan)
        SELECT u.user_id, u.link_id, u.ip, u.agent, u.attribution, u.is_bot, u.platform, to_timestamp(u.at / 1000.0), u.scan
        FROM unnest(${a(columns.userId, "INT")}::int[], ${a(columns.linkId, "INT")}::int[], ${a(columns.ip, "TEXT")}::text[],
                    ${a(columns.agent, "INT")}::int[], ${a(columns.attribution, "TEXT")}::text[], ${a(columns.isBot, "BOOLEAN")}::boolean[],
                    ${a(columns.platform, "TEXT")}::text[], ${a(columns.at, "DOUBLE PRECISION")}::float8[], ${a(columns.scan, "BOOLEAN")}::boolean[])
             AS u(user_id, link_id, ip, agent, attribution, is_bot, platform, at, scan)
        JOIN links l ON l.id = u.link_id
        RETURNING 1
      ),
      -- Hashes go through float8 (exact below 2^53, which they are).
      new_visitors AS (
        INSERT INTO view_visitors (day, link_id, hash)
        SELECT v.day, v.link_id, v.hash::int8
        FROM unnest(${a(visitors.day, "TEXT")}::text[], ${a(visitors.linkId, "INT")}::int[], ${a(visitors.hash, "DOUBLE PRECISION")}::float8[])
             AS v(day, link_id, hash)
        WHERE EXISTS (SELECT 1 FROM links WHERE links.id = v.link_id)
        ON CONFLICT DO NOTHING
        RETURNING day, link_id
      ),
      uniques AS (SELECT day, link_id, count(*)::int AS n FROM new_visitors GROUP BY day, link_id)
      INSERT INTO view_rollups (link_id, day, platform, slot, human, bot, last_at, scans, unique_humans)
      SELECT t.link_id, t.day, t.platform, ${this.slot}, t.human, t.bot, to_timestamp(t.last_at / 1000.0), t.scans,
             CASE WHEN t.platform = '' THEN coalesce(q.n, 0) ELSE 0 END
      FROM unnest(${a(sorted.map((r) => r.linkId), "INT")}::int[], ${a(sorted.map((r) => r.day), "TEXT")}::text[],
                  ${a(sorted.map((r) => r.platform), "TEXT")}::text[], ${a(sorted.map((r) => r.human), "INT")}::int[],
                  ${a(sorted.map((r) => r.bot), "INT")}::int[], ${a(sorted.map((r) => r.lastAt), "DOUBLE PRECISION")}::float8[],
                  ${a(sorted.map((r) => r.scans), "INT")}::int[])
           WITH ORDINALITY AS t(link_id, day, platform, human, bot, last_at, scans, n)
      LEFT JOIN uniques q ON q.link_id = t.link_id AND q.day = t.day
      WHERE EXISTS (SELECT 1 FROM links WHERE links.id = t.link_id)
      ORDER BY t.n
      ON CONFLICT (link_id, day, platform, slot)
      DO UPDATE SET human = view_rollups.human + excluded.human, bot = view_rollups.bot + excluded.bot,
                    scans = view_rollups.scans + excluded.scans, unique_humans = view_rollups.unique_humans + excluded.unique_humans,
                    last_at = greatest(view_rollups.last_at, excluded.last_at)`.catch((error: unknown) => {
      // The visitors it sent may not be in the set: ask the set again next time.
      this.visitors.forget();
      throw error;
    });
    await this.closeEarlierDays();
  }
}
