// PostgreSQL, for N LinkPrev nodes on one database: migrations under an advisory lock, link changes by
// NOTIFY/LISTEN, cluster-wide jobs and rate-limit counters in the database (docs/decisions/0005).
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import type { Config } from "../../config.ts";
import { GO_LINK_COLUMNS, RETIRED } from "../go-link-sql.ts";
import type { GoLinkRow, Platform } from "../ports.ts";
import { DatabaseUnavailable } from "../unavailable.ts";
import { applyPostgresMigrations } from "./migrate.ts";
import { describeDatabase, postgresOptions } from "./options.ts";
import { portable } from "./portable.ts";
import * as pgSchema from "./schema.ts";
import { PgUploads } from "./uploads.ts";

const LINK_CHANNEL = "linkprev_links";

/** Retries `SELECT 1` until it answers or `waitSeconds` are over: nodes may start before their database. */
async function waitForDatabase(client: SQL, url: string, waitSeconds: number): Promise<void> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    try {
      await client`SELECT 1`;
      return;
    } catch (error) {
      if (Date.now() >= deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new DatabaseUnavailable(`Cannot reach PostgreSQL at ${describeDatabase(url)} (tried for ${waitSeconds} s): ${reason}`);
      }
      await Bun.sleep(500);
    }
  }
}

export async function openPostgresPlatform(settings: NonNullable<Config["postgres"]>): Promise<Platform> {
  const client = new SQL(postgresOptions(settings.url, settings.poolMax));
  try {
    await waitForDatabase(client, settings.url, settings.waitSeconds);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const pgDb = drizzle({ client, schema: pgSchema });
  const db = portable(pgDb);
  const goLinkSql = `SELECT ${GO_LINK_COLUMNS} FROM users u JOIN links l ON l.user_id = u.id AND l.link_slug = $2 AND l.deleted = false WHERE u.user_slug = $1`;
  const retiredSql = "SELECT 1 FROM retired_user_slugs WHERE user_slug = $1";
  const newestSql = `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN users u ON u.id = l.user_id WHERE l.deleted = false ORDER BY l.id DESC LIMIT $1`;
  const takeClickSql = "UPDATE link_rules SET clicks = clicks + 1 WHERE link_id = $1 AND clicks < $2 RETURNING clicks";
  const subscriptions: Array<{ unlisten(): Promise<void> }> = [];
  let prunedBefore = 0;

  const transaction = <T>(work: (tx: typeof db) => Promise<T>) => pgDb.transaction((tx) => work(portable(tx)));

  return {
    database: {
      kind: "postgres",
      db,
      transaction,
      transactionWithoutForeignKeys: transaction,
      isUniqueViolation: (error) => {
        const e = error as { errno?: string; code?: string; cause?: { errno?: string; code?: string } };
        return [e?.errno, e?.code, e?.cause?.errno, e?.cause?.code].includes("23505");
      },
      migrate: () => applyPostgresMigrations(client),
      ping: async () => {
        await client`SELECT 1`;
      },
      close: async () => {
        for (const subscription of subscriptions) await subscription.unlisten().catch(() => undefined);
        await client.close();
      },
    },
    goLinks: {
      // No slug holds a NUL, and PostgreSQL refuses one in a text parameter: such an address is simply unknown.
      // The retired list is read on a miss only; the link cache keeps either answer.
      findGoLink: async (userSlug, linkSlug) => {
        if (userSlug.includes("\0") || linkSlug.includes("\0")) return null;
        const link = ((await client.unsafe(goLinkSql, [userSlug, linkSlug])) as GoLinkRow[])[0];
        if (link) return link;
        return ((await client.unsafe(retiredSql, [userSlug])) as unknown[]).length > 0 ? RETIRED : null;
      },
      newestGoLinks: async (limit) => [...((await client.unsafe(newestSql, [limit])) as GoLinkRow[])],
    },
    clickCaps: { takeClick: async (linkId, maxClicks) => ((await client.unsafe(takeClickSql, [linkId, maxClicks])) as unknown[]).length > 0 },
    changes: {
      // After the change committed: a lost notification must not fail the request (entries expire anyway).
      announceLinkChange: (key) =>
        client.notify(LINK_CHANNEL, key).catch((error) => console.error(`link change ${key} was not announced to other nodes: ${String(error)}`)),
      subscribeLinkChanges: async (onChange, onReset) => {
        let subscribed = false;
        // onListen runs again after every reconnection: anything sent meanwhile was lost, so start clean.
        const subscription = await client.listen(LINK_CHANNEL, onChange, () => {
          if (subscribed) onReset();
          subscribed = true;
        });
        subscriptions.push(subscription);
      },
    },
    jobs: {
      exclusively: async (jobName, job) => {
        await client.begin(async (tx) => {
          const [{ locked }] = await tx`SELECT pg_try_advisory_xact_lock(hashtext(${jobName})) AS locked`;
          if (locked) await job();
        });
      },
    },
    hits: {
      // Keys are client addresses: stored only as hashes, and only for the window they count (older windows are
      // deleted as each new one starts), so no address outlives its minute in the database.
      countHit: async (key, windowStart) => {
        if (windowStart !== prunedBefore) {
          prunedBefore = windowStart;
          await client`DELETE FROM rate_limits WHERE window_start < ${windowStart}`;
        }
        const hashed = encodeHexLowerCase(sha256(new TextEncoder().encode(`linkprev-rate-limit:${key}`)));
        const [row] = await client`INSERT INTO rate_limits (key, window_start, count) VALUES (${hashed}, ${windowStart}, 1)
          ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`;
        return Number(row.count);
      },
    },
    viewWriter: { kind: "postgres", url: settings.url, slot: settings.nodeSlot },
    uploads: new PgUploads(pgDb),
  };
}
