// The SQLite statements of the view writer (views/view-store.ts decides when each runs). The rollups record
// the last view id they count (view_rollup_mark) in the same transaction as their counts, so a crash can only
// leave them behind the stored rows, never out of step: `foldStoredRows` counts the rows beyond the mark in SQL.
import type { Database } from "bun:sqlite";

export const VIEW_COLUMNS = [
  "id",
  "user_id",
  "link_id",
  "ip",
  "user_agent_id",
  "attribution",
  "is_bot",
  "platform",
  "timestamp",
  "scan",
  "verification",
];
const INSERT_VIEWS = `INSERT INTO views (${VIEW_COLUMNS.join(", ")}) VALUES`;
const VIEW_VALUES = `(${VIEW_COLUMNS.map(() => "?").join(", ")})`;
/**
 * Rows stored per statement under load: binding and stepping a statement costs more than the row it stores,
 * and the writer shares the CPU with the request thread.
 */
export const ROWS_PER_INSERT = 64;

// max() of SQLite is NULL when either side is (rows from before migration 0004 may have no last_at).
const ROLLUP_UPSERT = `ON CONFLICT (link_id, day, platform) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot,
  scans = scans + excluded.scans, unique_humans = unique_humans + excluded.unique_humans, last_at = max(coalesce(last_at, excluded.last_at), excluded.last_at),
  verified = verified + excluded.verified, unverified = unverified + excluded.unverified, unverifiable = unverifiable + excluded.unverifiable`;

export type ViewStatements = ReturnType<typeof prepareViewStatements>;

/** The writer's statements, prepared once on its connection. */
export function prepareViewStatements(sqlite: Database) {
  const mark = sqlite.query<{ lastViewId: number }, []>(`SELECT last_view_id AS lastViewId FROM view_rollup_mark`);
  const setMark = sqlite.query(`UPDATE view_rollup_mark SET last_view_id = ?`);
  return {
    // Written as a join, SQLite looks each id up by key (twice as fast as IN over json_each here).
    liveLinks: sqlite.query<{ id: number }, [string]>(`SELECT l.id FROM json_each(?) j JOIN links l ON l.id = j.value`),
    findAgent: sqlite.query<{ id: number }, [string]>(`SELECT id FROM user_agents WHERE text = ?`),
    addAgent: sqlite.query<{ id: number }, [string]>(`INSERT INTO user_agents (text) VALUES (?) RETURNING id`),
    insertView: sqlite.query(`${INSERT_VIEWS} ${VIEW_VALUES}`),
    insertViews: sqlite.query(`${INSERT_VIEWS} ${Array(ROWS_PER_INSERT).fill(VIEW_VALUES).join(", ")}`),
    addToRollup: sqlite.query(
      `INSERT INTO view_rollups (link_id, day, platform, human, bot, last_at, scans, unique_humans, verified, unverified, unverifiable)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${ROLLUP_UPSERT}`,
    ),
    addVisitor: sqlite.query(`INSERT OR IGNORE INTO view_visitors (day, link_id, hash) VALUES (?, ?, ?)`),
    closeDaysBefore: sqlite.query(`DELETE FROM view_visitors WHERE day < ?`),
    /** Records a batch's id (slot 0: one writer per database); no change when it is stored already. */
    recordBatch: sqlite.query(`INSERT OR IGNORE INTO view_batches (slot, seq) VALUES (0, ?)`),
    forgetBatchesBefore: sqlite.query(`DELETE FROM view_batches WHERE stored_at < ?`),
    mark,
    newestView: sqlite.query<{ id: number | null }, []>(`SELECT max(id) AS id FROM views`),
    setMark,
    dataVersion: sqlite.query<{ data_version: number }, []>(`PRAGMA data_version`),
    /**
     * Folds the stored rows beyond the mark into the rollups and moves the mark to `upTo`; sets each day's unique
     * visitors to its number of stored hashes (the set holds every hash of the days it still has).
     */
    foldStoredRows(upTo: number): void {
      sqlite.run(
        `INSERT INTO view_rollups (link_id, day, platform, human, bot, last_at, scans, unique_humans, verified, unverified, unverifiable)
         SELECT link_id, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch'), coalesce(platform, ''), sum(is_bot = 0), sum(is_bot), max(timestamp),
                sum(is_bot = 0 AND scan), 0, sum(verification = 1), sum(verification = 2), sum(verification = 3)
         FROM views v WHERE id > ?1 AND id <= ?2 AND EXISTS (SELECT 1 FROM links WHERE id = v.link_id) GROUP BY 1, 2, 3 ${ROLLUP_UPSERT}`,
        [mark.get()!.lastViewId, upTo],
      );
      sqlite.run(
        `INSERT INTO view_rollups (link_id, day, platform, unique_humans)
         SELECT link_id, day, '', count(*) FROM view_visitors v WHERE EXISTS (SELECT 1 FROM links WHERE id = v.link_id) GROUP BY 1, 2
         ON CONFLICT (link_id, day, platform) DO UPDATE SET unique_humans = excluded.unique_humans`,
      );
      setMark.run(upTo);
    },
  };
}
