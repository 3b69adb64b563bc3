// Views the SQLite writer stored beyond its rollup fold mark (a crash before its next fold) are in no rollup yet:
// copy-to-postgres counts them in as the SQLite server would at its next start (db/sqlite/view-statements.ts).
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { CHUNK_ROWS, insertChunk, type Plan } from "./copy-tables.ts";

/** The gap's views, and how many rollup rows they added (rather than added to). */
export type ViewGap = { human: number; bot: number; newRollups: number };

type GapRow = {
  link_id: number;
  day: string;
  platform: string;
  human: number;
  bot: number;
  last_at: number;
  scans: number;
  unique_humans: number;
  verified: number;
  unverified: number;
  unverifiable: number;
};

/** Adds the gap's views to the copied rollups (`rollupPlan`: how view_rollups is copied). */
export async function foldViewGap(sqlite: Database, tx: SQL, rollupPlan: Plan): Promise<ViewGap> {
  const gap = sqlite
    .query<GapRow, []>(
      `SELECT link_id, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch') AS day, coalesce(platform, '') AS platform,
              sum(is_bot = 0) AS human, sum(is_bot) AS bot, max(timestamp) AS last_at, sum(is_bot = 0 AND scan) AS scans, 0 AS unique_humans,
              sum(verification = 1) AS verified, sum(verification = 2) AS unverified, sum(verification = 3) AS unverifiable
       FROM views v
       WHERE id > coalesce((SELECT last_view_id FROM view_rollup_mark), (SELECT max(id) FROM views), 0)
         AND EXISTS (SELECT 1 FROM links WHERE id = v.link_id)
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all();
  let newRollups = 0;
  for (let i = 0; i < gap.length; i += CHUNK_ROWS) {
    const chunk = gap.slice(i, i + CHUNK_ROWS);
    const rows = chunk.map((r) => rollupPlan.columns.map((c) => r[c.name as keyof GapRow]));
    const result = await insertChunk(
      tx,
      rollupPlan,
      rows,
      ` ON CONFLICT (link_id, day, platform, slot) DO UPDATE SET human = view_rollups.human + excluded.human, bot = view_rollups.bot + excluded.bot, scans = view_rollups.scans + excluded.scans, last_at = greatest(view_rollups.last_at, excluded.last_at), verified = view_rollups.verified + excluded.verified, unverified = view_rollups.unverified + excluded.unverified, unverifiable = view_rollups.unverifiable + excluded.unverifiable RETURNING (xmax = 0) AS inserted`,
    );
    newRollups += (result as Array<{ inserted: boolean }>).filter((row) => row.inserted).length;
  }
  return {
    human: gap.reduce((sum, row) => sum + row.human, 0),
    bot: gap.reduce((sum, row) => sum + row.bot, 0),
    newRollups,
  };
}

/** PostgreSQL's rollups must count SQLite's and the gap's views, no more, no less. */
export async function checkRollupSums(sqlite: Database, tx: SQL, gap: ViewGap): Promise<void> {
  const sqliteSums = sqlite
    .query<{ human: number; bot: number }, []>(
      `SELECT coalesce(sum(human), 0) AS human, coalesce(sum(bot), 0) AS bot FROM view_rollups`,
    )
    .get()!;
  const [pgSums] =
    await tx`SELECT coalesce(sum(human), 0)::int8 AS human, coalesce(sum(bot), 0)::int8 AS bot FROM view_rollups`;
  if (Number(pgSums.human) !== sqliteSums.human + gap.human || Number(pgSums.bot) !== sqliteSums.bot + gap.bot) {
    throw new Error("view_rollups: the copied counts differ from SQLite's; nothing was copied");
  }
}
