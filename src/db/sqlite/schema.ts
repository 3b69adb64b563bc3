// The stored entities, plus what the server needs (tokens, login links, webhook ids, view rollups).
// Limits live in CHECK constraints so that nothing over-long is stored whichever code path writes.
// One file per domain under ./schema/; this file is what the engine and the parity test read.
export * from "./schema/accounts.ts";
export * from "./schema/domains.ts";
export * from "./schema/links.ts";
export * from "./schema/views.ts";
export * from "./schema/safety.ts";
export * from "./schema/webhooks.ts";
export * from "./schema/crawler-fetches.ts";
export * from "./schema/members.ts";
export * from "./schema/qr-styles.ts";
export * from "./schema/audit.ts";
