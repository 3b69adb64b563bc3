// The PostgreSQL chunk and cycle lock of the raw views' retention (views/view-retention.ts runs the cycles).
import type { SQL } from "bun";
import type { CycleLock, PruneChunk } from "../ports.ts";
import { RETENTION_CHUNK_ROWS, retainedFromDay } from "../view-retention-chunk.ts";

/** PostgreSQL: one statement per chunk. */
export function postgresPruneChunk(sql: SQL): PruneChunk {
  return async (afterId, before) => {
    if (afterId === 0) await sql`DELETE FROM referrer_rollups WHERE day < ${retainedFromDay(before)}`;
    const [row] = await sql`
      WITH chunk AS (SELECT id FROM views WHERE id > ${afterId} ORDER BY id LIMIT ${RETENTION_CHUNK_ROWS}),
      gone AS (DELETE FROM views WHERE id IN (SELECT id FROM chunk) AND timestamp < to_timestamp(${before} / 1000.0) RETURNING 1)
      SELECT (SELECT max(id) FROM chunk) AS "lastId", (SELECT count(*) FROM chunk) AS rows, (SELECT count(*) FROM gone) AS deleted`;
    return {
      lastId: row.lastId === null ? null : Number(row.lastId),
      rows: Number(row.rows),
      deleted: Number(row.deleted),
    };
  };
}

/** PostgreSQL: one node per cycle (the lock is the writer connection's, freed if the node dies). */
export function postgresCycleLock(sql: SQL): CycleLock {
  return {
    acquire: async () =>
      Boolean((await sql`SELECT pg_try_advisory_lock(hashtext('view-retention')) AS locked`)[0].locked),
    release: async () => void (await sql`SELECT pg_advisory_unlock(hashtext('view-retention'))`),
  };
}
