/** Views looked at per retention chunk (sqlite/view-retention.ts, postgres/view-retention.ts). */
export const RETENTION_CHUNK_ROWS = 1000;

/**
 * The first day (YYYY-MM-DD, UTC) whose referrer counts are kept when raw views before `before` (ms) go: each
 * engine's first chunk of a cycle deletes the referrer_rollups days before it, so referrer hosts are kept as
 * long as the raw views that hold them.
 */
export const retainedFromDay = (before: number) => new Date(before).toISOString().slice(0, 10);
