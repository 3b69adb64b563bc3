// The PostgreSQL statements of preview.fetched (views/first-fetches.ts decides and words the events): after the
// batch's statement, one transaction records the batch's first fetches and announces the new ones, so a replayed
// batch (its firsts recorded already) announces nothing twice. A crash between the two loses the announcement.
import type { SQL } from "bun";
import type { Announcement, FirstFetch } from "../crawler-fetch-rows.ts";

/** Records `firsts`; `announce` words the new ones (each with its link's slug), which are then recorded as events. */
export async function recordFirstFetches(
  sql: SQL,
  firsts: FirstFetch[],
  announce: (added: Array<FirstFetch & { linkSlug: string }>) => Announcement[],
): Promise<void> {
  if (firsts.length === 0) return;
  const a = sql.array.bind(sql);
  await sql.begin(async (tx) => {
    const added = (await tx`
      INSERT INTO crawler_first_fetches (link_id, version, platform, at)
      SELECT f.link_id, f.version, f.platform, to_timestamp(f.at / 1000.0)
      FROM unnest(${a(
        firsts.map((f) => f.linkId),
        "INT",
      )}::int[], ${a(
        firsts.map((f) => f.version),
        "INT",
      )}::int[], ${a(
        firsts.map((f) => f.platform),
        "TEXT",
      )}::text[], ${a(
        firsts.map((f) => f.at),
        "DOUBLE PRECISION",
      )}::float8[]) AS f(link_id, version, platform, at)
      WHERE EXISTS (SELECT 1 FROM links WHERE links.id = f.link_id)
      ON CONFLICT DO NOTHING
      RETURNING link_id AS "linkId", version, platform, (SELECT link_slug FROM links WHERE links.id = link_id) AS "linkSlug"`) as Array<{
      linkId: number;
      version: number;
      platform: string;
      linkSlug: string;
    }>;
    const key = (f: { linkId: number; version: number; platform: string }) => `${f.linkId} ${f.version} ${f.platform}`;
    const byKey = new Map(firsts.map((f) => [key(f), f]));
    for (const e of announce(added.map((row) => ({ ...byKey.get(key(row))!, linkSlug: row.linkSlug })))) {
      await tx`INSERT INTO webhook_deliveries (endpoint_id, user_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
        SELECT e.id, e.user_id, ${e.eventId}, ${e.type}, ${e.payload}, 'pending', 0, ${e.at}, ${e.at}
        FROM webhook_endpoints e JOIN links l ON l.user_id = e.user_id
        WHERE l.id = ${e.linkId} AND e.enabled AND e.events LIKE ${`%"${e.type}"%`}`;
    }
  });
}
