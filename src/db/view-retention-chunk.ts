/** Views looked at per retention chunk (sqlite/view-retention.ts, postgres/view-retention.ts). */
export const RETENTION_CHUNK_ROWS = 1000;
