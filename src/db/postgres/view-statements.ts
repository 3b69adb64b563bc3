// The PostgreSQL statements of the view writer (views/view-store.pg.ts shapes each batch into these columns).
// A batch is one statement: its rows go in through unnest() arrays (a fixed number of parameters whatever the
// batch size) and its rollup counts are upserted in the same statement, so rows and counts commit together.
import type { SQL } from "bun";
import type { ClickTally } from "../ports.ts";
import type { ReferrerCount } from "../referrer-buckets.ts";
import type { CrawlerFetchRow } from "../crawler-fetch-rows.ts";
import { crawlerFetchesCte } from "./crawler-fetches.ts";
import { referrerRollupsCte } from "./referrer-rollups.ts";

/** A batch's view rows, one array per column. */
export type ViewColumns = {
  userId: number[];
  linkId: number[];
  ip: (string | null)[];
  agent: number[];
  attribution: (string | null)[];
  isBot: boolean[];
  platform: (string | null)[];
  at: number[];
  scan: boolean[];
  verification: number[];
};
/** Visitor hashes the set may not hold yet, one array per column. */
export type VisitorColumns = { day: string[]; linkId: number[]; hash: number[] };
/** One rollup row's counts; `day` is YYYY-MM-DD. */
export type RollupRow = {
  linkId: number;
  day: string;
  platform: string;
  human: number;
  bot: number;
  scans: number;
  lastAt: number;
  verified: number;
  unverified: number;
  unverifiable: number;
};

/** Drops the visitor hashes of the days before `day` (YYYY-MM-DD). */
export async function deleteVisitorsBefore(sql: SQL, day: string): Promise<void> {
  await sql`DELETE FROM view_visitors WHERE day < ${day}`;
}

/** The ids of these User-Agents, adding the new ones (two nodes may meet the same new agent at once). */
export async function userAgentIds(sql: SQL, agents: string[]): Promise<Array<{ id: number; text: string }>> {
  const list = sql.array(agents, "TEXT");
  await sql`INSERT INTO user_agents (text) SELECT unnest(${list}::text[]) ON CONFLICT (text) DO NOTHING`;
  return sql`SELECT id, text FROM user_agents WHERE text = ANY(${list}::text[])`;
}

/** Forgets the batch ids stored before `before` (ms): a batch is never sent again that long after. */
export async function forgetBatchesBefore(sql: SQL, before: number): Promise<void> {
  await sql`DELETE FROM view_batches WHERE stored_at < to_timestamp(${before} / 1000.0)`;
}

/**
 * Stores the rows, the new visitors, the rollups and the referrer counts (in the order given: callers sort them so that nodes
 * lock rows in one order) in one statement, on the rollup rows of node `slot`, with the batch's id (`slot`,
 * `seq`): a batch whose id is already stored changes nothing. `clicks`: its link.clicked counts (click-outbox.ts);
 * `fetches`: its crawler fetches on record (crawler-fetches.ts).
 */
export function storeViewBatch(
  sql: SQL,
  slot: number,
  seq: number,
  columns: ViewColumns,
  visitors: VisitorColumns,
  rollups: RollupRow[],
  clicks: ClickTally | null,
  referrers: ReferrerCount[],
  fetches: CrawlerFetchRow[],
): Promise<unknown> {
  const a = sql.array.bind(sql);
  // A view of a link deleted meanwhile (with its owner) is dropped, as on SQLite: the JOIN / EXISTS.
  return sql`
    WITH batch AS (
      INSERT INTO view_batches (slot, seq) VALUES (${slot}, ${seq}) ON CONFLICT DO NOTHING RETURNING 1
    ),
    stored AS (
      INSERT INTO views (user_id, link_id, ip, user_agent_id, attribution, is_bot, platform, timestamp, scan, verification)
      SELECT u.user_id, u.link_id, u.ip, u.agent, u.attribution, u.is_bot, u.platform, to_timestamp(u.at / 1000.0), u.scan, u.verification
      FROM unnest(${a(columns.userId, "INT")}::int[], ${a(columns.linkId, "INT")}::int[], ${a(columns.ip, "TEXT")}::text[],
                  ${a(columns.agent, "INT")}::int[], ${a(columns.attribution, "TEXT")}::text[], ${a(columns.isBot, "BOOLEAN")}::boolean[],
                  ${a(columns.platform, "TEXT")}::text[], ${a(columns.at, "DOUBLE PRECISION")}::float8[], ${a(columns.scan, "BOOLEAN")}::boolean[],
                  ${a(columns.verification, "INT")}::int[])
           AS u(user_id, link_id, ip, agent, attribution, is_bot, platform, at, scan, verification)
      JOIN links l ON l.id = u.link_id
      WHERE EXISTS (SELECT 1 FROM batch)
      RETURNING 1
    ),
    -- Hashes go through float8 (exact below 2^53, which they are).
    new_visitors AS (
      INSERT INTO view_visitors (day, link_id, hash)
      SELECT v.day, v.link_id, v.hash::int8
      FROM unnest(${a(visitors.day, "TEXT")}::text[], ${a(visitors.linkId, "INT")}::int[], ${a(visitors.hash, "DOUBLE PRECISION")}::float8[])
           AS v(day, link_id, hash)
      WHERE EXISTS (SELECT 1 FROM links WHERE links.id = v.link_id) AND EXISTS (SELECT 1 FROM batch)
      ON CONFLICT DO NOTHING
      RETURNING day, link_id
    ),
    uniques AS (SELECT day, link_id, count(*)::int AS n FROM new_visitors GROUP BY day, link_id),
    ${clickCounts(sql, slot, clicks)},
    ${crawlerFetchesCte(sql, fetches)},
    ${referrerRollupsCte(sql, referrers)}
    INSERT INTO view_rollups (link_id, day, platform, slot, human, bot, last_at, scans, unique_humans, verified, unverified, unverifiable)
    SELECT t.link_id, t.day, t.platform, ${slot}, t.human, t.bot, to_timestamp(t.last_at / 1000.0), t.scans,
           CASE WHEN t.platform = '' THEN coalesce(q.n, 0) ELSE 0 END, t.verified, t.unverified, t.unverifiable
    FROM unnest(${a(
      rollups.map((r) => r.linkId),
      "INT",
    )}::int[], ${a(
      rollups.map((r) => r.day),
      "TEXT",
    )}::text[],
                ${a(
                  rollups.map((r) => r.platform),
                  "TEXT",
                )}::text[], ${a(
                  rollups.map((r) => r.human),
                  "INT",
                )}::int[],
                ${a(
                  rollups.map((r) => r.bot),
                  "INT",
                )}::int[], ${a(
                  rollups.map((r) => r.lastAt),
                  "DOUBLE PRECISION",
                )}::float8[],
                ${a(
                  rollups.map((r) => r.scans),
                  "INT",
                )}::int[],
                ${a(
                  rollups.map((r) => r.verified),
                  "INT",
                )}::int[], ${a(
                  rollups.map((r) => r.unverified),
                  "INT",
                )}::int[], ${a(
                  rollups.map((r) => r.unverifiable),
                  "INT",
                )}::int[])
         WITH ORDINALITY AS t(link_id, day, platform, human, bot, last_at, scans, verified, unverified, unverifiable, n)
    LEFT JOIN uniques q ON q.link_id = t.link_id AND q.day = t.day
    WHERE EXISTS (SELECT 1 FROM links WHERE links.id = t.link_id) AND EXISTS (SELECT 1 FROM batch)
    ORDER BY t.n
    ON CONFLICT (link_id, day, platform, slot)
    DO UPDATE SET human = view_rollups.human + excluded.human, bot = view_rollups.bot + excluded.bot,
                  scans = view_rollups.scans + excluded.scans, unique_humans = view_rollups.unique_humans + excluded.unique_humans,
                  last_at = greatest(view_rollups.last_at, excluded.last_at), verified = view_rollups.verified + excluded.verified,
                  unverified = view_rollups.unverified + excluded.unverified, unverifiable = view_rollups.unverifiable + excluded.unverifiable`;
}

/** The batch's link.clicked counts, added to this node's open window (a CTE of storeViewBatch's statement). */
function clickCounts(sql: SQL, slot: number, clicks: ClickTally | null) {
  const a = sql.array.bind(sql);
  const c = clicks ?? { linkId: [], userId: [], bucket: [], n: [], since: 0 };
  return sql`clicks AS (
      INSERT INTO webhook_click_counts (slot, link_id, user_id, bucket, n, since)
      SELECT ${slot}, c.link_id, c.user_id, c.bucket, c.n, ${c.since}
      FROM unnest(${a(c.linkId, "INT")}::int[], ${a(c.userId, "INT")}::int[], ${a(c.bucket, "TEXT")}::text[], ${a(c.n, "INT")}::int[]) AS c(link_id, user_id, bucket, n)
      WHERE EXISTS (SELECT 1 FROM batch)
      ORDER BY c.link_id, c.bucket
      ON CONFLICT (slot, link_id, bucket) DO UPDATE SET n = webhook_click_counts.n + excluded.n
    )`;
}
