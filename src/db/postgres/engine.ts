// PostgreSQL, for N LinkPrev nodes on one database: migrations under an advisory lock, link changes by
// NOTIFY/LISTEN, cluster-wide jobs and rate-limit counters in the database (docs/decisions/0005).
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import type { Config } from "../../config/config.ts";
import type { Logger } from "../../observability/log.ts";
import { decodeChange, encodeChange, type Change } from "../change.ts";
import { GO_LINK_COLUMNS, GO_LINK_RULES_JOIN, OLD_ADDRESS_KEYS_SQL, OLD_ADDRESS_SQL, RETIRED } from "../go-link-sql.ts";
import { oldAddressLink } from "../old-address-link.ts";
import { HIT_WINDOW_MAX_MS, type GoLinkRow, type Platform } from "../ports.ts";
import { DatabaseUnavailable } from "../unavailable.ts";
import { applyPostgresMigrations } from "./migrate.ts";
import { describeDatabase, postgresOptions } from "./options.ts";
import { portable } from "./portable.ts";
import * as pgSchema from "./schema.ts";
import { PgUploads } from "./uploads.ts";
import { postgresWebhookQueue } from "./webhook-queue.ts";

const LINK_CHANNEL = "linkprev_links";
/** Addresses read per query when the link cache builds its filter of existing addresses. */
const ADDRESS_PAGE = 50_000;

/** Retries `SELECT 1` until it answers or `waitSeconds` are over: nodes may start before their database. */
async function waitForDatabase(client: SQL, url: string, waitSeconds: number): Promise<void> {
  const deadline = performance.now() + waitSeconds * 1000;
  for (;;) {
    try {
      await client`SELECT 1`;
      return;
    } catch (error) {
      if (performance.now() >= deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new DatabaseUnavailable(
          `Cannot reach PostgreSQL at ${describeDatabase(url)} (tried for ${waitSeconds} s): ${reason}`,
        );
      }
      await Bun.sleep(500);
    }
  }
}

export async function openPostgresPlatform(settings: NonNullable<Config["postgres"]>, log: Logger): Promise<Platform> {
  const client = new SQL(postgresOptions(settings.url, settings.poolMax));
  try {
    await waitForDatabase(client, settings.url, settings.waitSeconds);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const pgDb = drizzle({ client, schema: pgSchema });
  const db = portable(pgDb);
  const goLinkSql = `SELECT ${GO_LINK_COLUMNS} FROM workspaces w JOIN links l ON l.workspace_id = w.id AND l.link_slug = $2 AND l.deleted = false ${GO_LINK_RULES_JOIN} WHERE w.slug = $1`;
  const oldAddressSql = OLD_ADDRESS_SQL((n) => `$${n}`);
  const goLinkByIdSql = `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN} WHERE l.id = $1 AND l.deleted = false`;
  const retiredSql = "SELECT 1 FROM retired_user_slugs WHERE user_slug = $1";
  const ownSubscribers: Array<(change: Change) => void> = [];
  const addressPageSql = `SELECT l.id AS "id", w.slug || '/' || l.link_slug AS "key" FROM links l JOIN workspaces w ON w.id = l.workspace_id
    WHERE l.deleted = false AND l.id > $1 ORDER BY l.id LIMIT ${ADDRESS_PAGE}`;
  const mostViewedSql = `SELECT link_id AS "id" FROM link_totals WHERE views > 0 ORDER BY views DESC, link_id DESC LIMIT $1`;
  const byIdsSql = `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN}
    WHERE l.id = ANY(string_to_array($1, ',')::int[]) AND l.deleted = false`;
  const newestSql = `SELECT ${GO_LINK_COLUMNS} FROM links l JOIN workspaces w ON w.id = l.workspace_id ${GO_LINK_RULES_JOIN} WHERE l.deleted = false AND l.id < $2 ORDER BY l.id DESC LIMIT $1`;
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
      // Earlier addresses and the retired list are read on a miss only; the link cache keeps either answer.
      findGoLink: async (userSlug, linkSlug) => {
        if (userSlug.includes("\0") || linkSlug.includes("\0")) return null;
        const link = ((await client.unsafe(goLinkSql, [userSlug, linkSlug])) as GoLinkRow[])[0];
        if (link) return link;
        const old = await oldAddressLink(
          async (...args) =>
            (
              (await client.unsafe(oldAddressSql, args)) as Array<{ linkId: number | null; domainId: number | null }>
            )[0],
          async (id) => ((await client.unsafe(goLinkByIdSql, [id])) as GoLinkRow[])[0],
          userSlug,
          linkSlug,
        );
        if (old) return old;
        return ((await client.unsafe(retiredSql, [userSlug])) as unknown[]).length > 0 ? RETIRED : null;
      },
      newestGoLinks: async (limit, beforeId = 2 ** 31 - 1) => [
        ...((await client.unsafe(newestSql, [limit, beforeId])) as GoLinkRow[]),
      ],
      mostViewedLinkIds: async (limit) =>
        ((await client.unsafe(mostViewedSql, [limit])) as Array<{ id: number }>).map(({ id }) => id),
      goLinksByIds: async (ids) => [...((await client.unsafe(byIdsSql, [ids.join(",")])) as GoLinkRow[])],
      // In pages by id: a million addresses never sit in memory at once as one result.
      goAddresses: async (onAddress) => {
        for (let after = 0; ; ) {
          const page = (await client.unsafe(addressPageSql, [after])) as Array<{ id: number; key: string }>;
          for (const { key } of page) onAddress(key);
          if (page.length < ADDRESS_PAGE) break;
          after = page[page.length - 1]!.id;
        }
        for (const { key } of (await client.unsafe(
          "SELECT user_slug || '/' AS \"key\" FROM retired_user_slugs",
        )) as Array<{ key: string }>)
          onAddress(key);
        // Far fewer than the links (renames and moves): one result.
        for (const { key } of (await client.unsafe(OLD_ADDRESS_KEYS_SQL)) as Array<{ key: string }>) onAddress(key);
      },
    },
    clickCaps: {
      takeClick: async (linkId, maxClicks) =>
        ((await client.unsafe(takeClickSql, [linkId, maxClicks])) as Array<{ clicks: number }>)[0]?.clicks ?? null,
    },
    changes: {
      // After the change committed: a lost notification must not fail the request (entries expire anyway).
      // This node's caches hear it at once, before the answer that made the change (its NOTIFY comes back later):
      // a link just created is served by the node that created it without waiting for the round trip.
      announceChange: (change) => {
        for (const notify of ownSubscribers) notify(change);
        return client
          .notify(LINK_CHANNEL, encodeChange(change))
          .catch((error) => log.error(`a ${change.kind} change was not announced to other nodes`, error));
      },
      subscribeChanges: async (onChange, onReset) => {
        ownSubscribers.push(onChange);
        let subscribed = false;
        // A payload this release cannot read (a later release's, during a rolling restart) may have been any
        // change: start clean, as after a reconnection.
        const heard = (text: string) => {
          const change = decodeChange(text);
          if (change === null) onReset();
          else onChange(change);
        };
        // onListen runs again after every reconnection: anything sent meanwhile was lost, so start clean.
        const subscription = await client.listen(LINK_CHANNEL, heard, () => {
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
      // Keys are client addresses: stored only as hashes, and only for a day at most (windows that started
      // HIT_WINDOW_MAX_MS before the newest are deleted as later ones start; an hour's must outlive the minutes in it).
      // The key names the window's length: a minute and an hour may start at the same time.
      countHit: async (key, windowStart, windowMs) => {
        if (windowStart > prunedBefore) {
          prunedBefore = windowStart;
          await client`DELETE FROM rate_limits WHERE window_start <= ${windowStart - HIT_WINDOW_MAX_MS}`;
        }
        const hashed = encodeHexLowerCase(sha256(new TextEncoder().encode(`linkprev-rate-limit:${windowMs}:${key}`)));
        const [row] =
          await client`INSERT INTO rate_limits (key, window_start, count) VALUES (${hashed}, ${windowStart}, 1)
          ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`;
        return Number(row.count);
      },
    },
    viewWriter: { kind: "postgres", url: settings.url, slot: settings.nodeSlot },
    webhooks: postgresWebhookQueue(client),
    uploads: new PgUploads(pgDb),
  };
}
