// The embedded engine: one SQLite file in WAL mode, one process. Link changes and jobs need no cluster.
import type { Database } from "bun:sqlite";
import { GO_LINK_COLUMNS, GO_LINK_RULES_JOIN, OLD_ADDRESS_KEYS_SQL, OLD_ADDRESS_SQL, RETIRED } from "../go-link-sql.ts";
import { oldAddressLink } from "../old-address-link.ts";
import type { Change } from "../change.ts";
import type { GoLinkRow, Platform } from "../ports.ts";
import { openDb } from "./connection.ts";
import { applyMigrations } from "./migrate.ts";
import { sqliteWebhookQueue } from "./webhook-queue.ts";

/**
 * Transactions are `BEGIN IMMEDIATE` … `COMMIT` around the async body, one at a time. drizzle's bun-sqlite
 * `transaction()` must never get an async callback: a throw after an `await` left the insert committed.
 * Awaiting a bun-sqlite query runs it at once and lets no new request start in between (that takes a
 * macrotask), so a body that does no other I/O keeps the connection to itself.
 */
function serialisedTransactions(sqlite: Database) {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(body: () => Promise<T>, foreignKeys = true): Promise<T> => {
    const run = queue.then(async () => {
      // A per-connection setting that SQLite ignores inside a transaction; switched back before anything else
      // can run on the connection (the body does no other I/O, see above).
      if (!foreignKeys) sqlite.run("PRAGMA foreign_keys = OFF");
      try {
        sqlite.run("BEGIN IMMEDIATE");
        try {
          const result = await body();
          sqlite.run("COMMIT");
          return result;
        } catch (error) {
          // SQLite has rolled back already after some errors (SQLITE_FULL, SQLITE_IOERR): the error is the answer.
          if (sqlite.inTransaction) sqlite.run("ROLLBACK");
          throw error;
        }
      } finally {
        if (!foreignKeys) sqlite.run("PRAGMA foreign_keys = ON");
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };
}

export function openSqlitePlatform(dbPath: string): Platform {
  const { sqlite, db } = openDb(dbPath);
  const inTransaction = serialisedTransactions(sqlite);
  // Prepared on first use: the tables exist only once migrate() has run.
  const findGoLink = () =>
    sqlite.query<GoLinkRow, [string, string]>(
      `SELECT ${GO_LINK_COLUMNS} FROM workspaces w JOIN links l ON l.workspace_id = w.id AND l.link_slug = ?2 AND l.deleted = 0 ${GO_LINK_RULES_JOIN} WHERE w.slug = ?1`,
    );
  const oldAddress = () =>
    sqlite.query<{ linkId: number | null; domainId: number | null }, [string, string, number | null]>(
      OLD_ADDRESS_SQL((n) => `?${n}`),
    );
  const goLinkById = () =>
    sqlite.query<GoLinkRow, [number]>(
      `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN} WHERE l.id = ?1 AND l.deleted = 0`,
    );
  const isRetired = () =>
    sqlite.query<{ one: number }, [string]>("SELECT 1 AS one FROM retired_user_slugs WHERE user_slug = ?1");
  const newestGoLinks = () =>
    sqlite.query<GoLinkRow, [number, number]>(
      `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN} WHERE l.deleted = 0 AND l.id < ?2 ORDER BY l.id DESC LIMIT ?1`,
    );
  const mostViewed = () =>
    sqlite.query<unknown, [number]>(
      "SELECT link_id FROM link_totals WHERE views > 0 ORDER BY views DESC, link_id DESC LIMIT ?1",
    );
  const byIds = () =>
    sqlite.query<GoLinkRow, [string]>(
      `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN} WHERE l.id IN (SELECT value FROM json_each(?1)) AND l.deleted = 0`,
    );
  const goAddresses = () =>
    sqlite.query<{ key: string }, []>(
      `SELECT w.slug || '/' || l.link_slug AS key FROM links l JOIN workspaces w ON w.id = l.workspace_id WHERE l.deleted = 0 UNION ALL SELECT user_slug || '/' FROM retired_user_slugs UNION ALL ${OLD_ADDRESS_KEYS_SQL}`,
    );
  const takeClick = () =>
    sqlite.query<{ clicks: number }, [number, number]>(
      "UPDATE link_rules SET clicks = clicks + 1 WHERE link_id = ?1 AND clicks < ?2 RETURNING clicks",
    );
  // One process: a change reaches the caches that subscribed here.
  const subscribers: Array<(change: Change) => void> = [];
  // The auth rate limit's windows, in memory: one process counts every request.
  // By window (start and length), then key: a minute's counts beside an hour's, each dropped once it has ended.
  const hits = new Map<string, { end: number; counts: Map<string, number> }>();

  return {
    database: {
      kind: "sqlite",
      db,
      transaction: (work) => inTransaction(() => work(db)),
      transactionWithoutForeignKeys: (work) => inTransaction(() => work(db), false),
      isUniqueViolation: (error) =>
        String((error as { code?: string })?.code ?? error).includes("SQLITE_CONSTRAINT_UNIQUE"),
      migrate: async () => applyMigrations(sqlite),
      ping: async () => {
        sqlite.query("SELECT 1").get();
      },
      close: async () => sqlite.close(),
    },
    goLinks: {
      // Earlier addresses and the retired list are read on a miss only; the link cache keeps every answer.
      findGoLink: async (userSlug, linkSlug) =>
        findGoLink().get(userSlug, linkSlug) ??
        (await oldAddressLink(
          async (...args) => oldAddress().get(...args) ?? undefined,
          async (id) => goLinkById().get(id) ?? undefined,
          userSlug,
          linkSlug,
        )) ??
        (isRetired().get(userSlug) ? RETIRED : null),
      newestGoLinks: async (limit, beforeId = Number.MAX_SAFE_INTEGER) => newestGoLinks().all(limit, beforeId),
      mostViewedLinkIds: async (limit) => (mostViewed().values(limit) as number[][]).map(([id]) => id!),
      goLinksByIds: async (ids) => byIds().all(JSON.stringify(ids)),
      goAddresses: async (onAddress) => {
        for (const { key } of goAddresses().iterate()) onAddress(key);
      },
    },
    clickCaps: { takeClick: async (linkId, maxClicks) => takeClick().get(linkId, maxClicks)?.clicks ?? null },
    changes: {
      announceChange: async (change) => {
        for (const notify of subscribers) notify(change);
      },
      subscribeChanges: async (onChange) => {
        subscribers.push(onChange);
      },
    },
    jobs: { exclusively: (_jobName, job) => job() },
    hits: {
      countHit: async (key, windowStart, windowMs) => {
        const id = `${windowStart}/${windowMs}`;
        let window = hits.get(id);
        if (window === undefined) {
          for (const [other, { end }] of hits) if (end <= windowStart) hits.delete(other);
          hits.set(id, (window = { end: windowStart + windowMs, counts: new Map() }));
        }
        const count = (window.counts.get(key) ?? 0) + 1;
        window.counts.set(key, count);
        return count;
      },
    },
    viewWriter: { kind: "sqlite", dbPath },
    webhooks: sqliteWebhookQueue(sqlite, inTransaction),
    uploads: null,
  };
}
