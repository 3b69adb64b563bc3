// The SQLite chunk of the raw views' retention (views/view-retention.ts runs the cycles).
import type { Database } from "bun:sqlite";
import type { PruneChunk } from "../ports.ts";
import { RETENTION_CHUNK_ROWS, retainedFromDay } from "../view-retention-chunk.ts";

/** SQLite: only rows the rollups already count (at or below the rollup mark) may go. */
export function sqlitePruneChunk(sqlite: Database): PruneChunk {
  const chunk = sqlite.query<{ lastId: number | null; rows: number }, [number]>(
    `SELECT max(id) AS lastId, count(*) AS rows FROM (SELECT id FROM views WHERE id > ?1 AND id <= (SELECT last_view_id FROM view_rollup_mark) ORDER BY id LIMIT ${RETENTION_CHUNK_ROWS})`,
  );
  const remove = sqlite.query(`DELETE FROM views WHERE id > ?1 AND id <= ?2 AND timestamp < ?3`);
  const trimReferrers = sqlite.query(`DELETE FROM referrer_rollups WHERE day < ?`);
  return async (afterId, before) => {
    if (afterId === 0) trimReferrers.run(retainedFromDay(before));
    const { lastId, rows } = chunk.get(afterId)!;
    if (lastId === null) return { lastId, rows, deleted: 0 };
    const deleted = remove.run(afterId, lastId, before).changes;
    return { lastId, rows, deleted };
  };
}
