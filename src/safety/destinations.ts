// The per-host index of every address a person can be sent to besides a link's own target (links.target_domain):
// rule targets and expired addresses, written with the link's rules, and custom domains' root and not-found
// addresses, written with the domain. A feed refresh finds what a new entry covers through it (disable-matching.ts).
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { GoRules } from "../rules/model.ts";
import { URL_MAX } from "../links/model.ts";
import { canonicalHttpUrl } from "../links/url.ts";
import { targetDomainOf } from "./matching.ts";

export type DomainUrls = { rootUrl?: string | null; notFoundUrl?: string | null };

const CHUNK = 500;

/** A rule set's addresses by the field the owner wrote them in. */
function ruleDestinations(rules: GoRules | null): Array<{ field: string; url: string }> {
  if (!rules) return [];
  return [
    ...(rules.rules ?? []).map((rule, index) => ({ field: `rules.${index}.targetUrl`, url: rule.targetUrl })),
    ...(rules.expiredUrl ? [{ field: "expiredUrl", url: rules.expiredUrl }] : []),
  ];
}

const row = (destination: { field: string; url: string }) => ({
  ...destination,
  targetDomain: targetDomainOf(destination.url) ?? "",
});

/** Within the link's write (`tx`): its indexed addresses become those of `rules`. */
export async function indexLinkDestinations(tx: Db, linkId: number, rules: GoRules): Promise<void> {
  const { destinations } = tablesOf(tx);
  await tx.delete(destinations).where(eq(destinations.linkId, linkId));
  const rows = ruleDestinations(rules).map((destination) => ({ linkId, ...row(destination) }));
  if (rows.length > 0) await tx.insert(destinations).values(rows);
}

/** Within the domain's write (`tx`): the fields `urls` sets (null: removed) replace their indexed addresses. */
export async function indexDomainDestinations(tx: Db, domainId: number, urls: DomainUrls): Promise<void> {
  const { destinations } = tablesOf(tx);
  for (const field of ["rootUrl", "notFoundUrl"] as const) {
    const url = urls[field];
    if (url === undefined) continue;
    await tx.delete(destinations).where(and(eq(destinations.domainId, domainId), eq(destinations.field, field)));
    if (url !== null) await tx.insert(destinations).values({ domainId, ...row({ field, url }) });
  }
}

/**
 * Rows the index does not cover yet (target_domain null, found through its index): links from before it, targets
 * whose host migration 0022 found spelled with a trailing dot, addresses it copied from rules and domains. Each gets
 * its canonical spelling and its domain once, a chunk per transaction.
 */
export async function fillDestinationIndex(database: Database): Promise<void> {
  const { destinations, links } = tablesOf(database.db);
  for (;;) {
    const rows = await database.db
      .select({ id: links.id, targetUrl: links.targetUrl })
      .from(links)
      .where(isNull(links.targetDomain))
      .limit(CHUNK);
    if (rows.length === 0) break;
    await database.transaction(async (tx) => {
      for (const link of rows) {
        const canonical = canonicalHttpUrl(link.targetUrl);
        const targetUrl = canonical && canonical.length <= URL_MAX ? canonical : link.targetUrl;
        await tx
          .update(links)
          .set({ targetUrl, targetDomain: targetDomainOf(link.targetUrl) ?? "" })
          .where(eq(links.id, link.id));
      }
    });
  }
  for (;;) {
    const rows = await database.db
      .select({ id: destinations.id, url: destinations.url })
      .from(destinations)
      .where(isNull(destinations.targetDomain))
      .limit(CHUNK);
    if (rows.length === 0) return;
    const unusable = rows
      .filter((destination) => targetDomainOf(destination.url) === null)
      .map((destination) => destination.id);
    await database.transaction(async (tx) => {
      if (unusable.length > 0) await tx.delete(destinations).where(inArray(destinations.id, unusable));
      for (const destination of rows) {
        const targetDomain = targetDomainOf(destination.url);
        if (targetDomain !== null)
          await tx
            .update(destinations)
            .set({ url: canonicalHttpUrl(destination.url)!, targetDomain })
            .where(eq(destinations.id, destination.id));
      }
    });
  }
}
