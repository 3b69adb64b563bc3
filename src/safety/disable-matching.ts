// What a new entry covers is disabled, found through the per-host indexes only, never by reading all links: live
// links by their target (links.target_domain), and by their rules' targets and expired address, and custom domains
// by their root and not-found addresses (destinations.target_domain). A link is disabled; a domain's address is
// removed (its / shows the small page, an unknown address the 404 page), with an audit row.
import { and, eq, inArray } from "drizzle-orm";
import type { Change } from "../db/change.ts";
import type { ChangeBus, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { audit } from "./audit.ts";
import { sourceName } from "./feeds/formats.ts";
import { announce, setLinkStatus } from "./link-status.ts";
import { covers, normaliseUrl, type ThreatEntry } from "./matching.ts";

const CHUNK = 500;

/** What a disable changed: the links at their short addresses, and whether a domain's address was removed. */
export type Disabled = { addresses: Change[]; domains: boolean };

/** Tells every /go cache and host map of what `disabled` changed, once committed. */
export async function announceDisabled(changes: ChangeBus, disabled: Disabled): Promise<void> {
  await announce(changes, disabled.domains ? [...disabled.addresses, { kind: "domains" }] : disabled.addresses);
}

/** Disables, within `tx`, the active live links and removes the domains' addresses that `entries` of `source` cover. */
export async function disableMatching(
  tx: Db,
  publicUrl: string,
  source: string,
  entries: ThreatEntry[],
  actor: string,
  at: Date,
): Promise<Disabled> {
  const { destinations, links } = tablesOf(tx);
  const byDomain = new Map<string, ThreatEntry[]>();
  for (const entry of entries) byDomain.set(entry.domain, [...(byDomain.get(entry.domain) ?? []), entry]);
  const covered = (targetDomain: string | null, target: string) => {
    const url = normaliseUrl(target);
    return (
      url !== null &&
      (byDomain.get(targetDomain ?? "") ?? []).some((entry) => covers(entry, url, new URL(url).hostname))
    );
  };
  const reason = `Listed by ${sourceName(source)}`;
  const domainList = [...byDomain.keys()];
  const disabled: Disabled = { addresses: [], domains: false };
  for (let i = 0; i < domainList.length; i += CHUNK) {
    const chunk = domainList.slice(i, i + CHUNK);
    const targets = await tx
      .select({ id: links.id, url: links.targetUrl, targetDomain: links.targetDomain })
      .from(links)
      .where(and(inArray(links.targetDomain, chunk), eq(links.deleted, false), eq(links.status, "active")));
    const elsewhere = await tx
      .select({
        id: destinations.id,
        linkId: destinations.linkId,
        domainId: destinations.domainId,
        field: destinations.field,
        url: destinations.url,
        targetDomain: destinations.targetDomain,
        deleted: links.deleted,
        status: links.status,
      })
      .from(destinations)
      .leftJoin(links, eq(links.id, destinations.linkId))
      .where(inArray(destinations.targetDomain, chunk));
    const hits = elsewhere.filter((destination) => covered(destination.targetDomain, destination.url));
    const liveHits = hits.flatMap((hit) =>
      hit.linkId !== null && hit.deleted === false && hit.status === "active" ? [hit.linkId] : [],
    );
    const linkIds = new Set([
      ...targets.filter((link) => covered(link.targetDomain, link.url)).map((link) => link.id),
      ...liveHits,
    ]);
    disabled.addresses.push(
      ...(await setLinkStatus(tx, publicUrl, [...linkIds], { status: "disabled", reason, actor, why: reason }, at)),
    );
    for (const hit of hits) {
      if (hit.domainId === null) continue;
      await removeDomainAddress(tx, { id: hit.id, domainId: hit.domainId, field: hit.field }, actor, reason, at);
      disabled.domains = true;
    }
  }
  return disabled;
}

async function removeDomainAddress(
  tx: Db,
  hit: { id: number; domainId: number; field: string },
  actor: string,
  reason: string,
  at: Date,
): Promise<void> {
  const { destinations, domains } = tablesOf(tx);
  const column = hit.field === "rootUrl" ? { rootUrl: null } : { notFoundUrl: null };
  const [domain] = await tx
    .update(domains)
    .set({ ...column, updatedAt: at })
    .where(eq(domains.id, hit.domainId))
    .returning({ hostname: domains.hostname });
  await tx.delete(destinations).where(eq(destinations.id, hit.id));
  if (domain)
    await audit(tx, { actor, action: "domain.address.remove", subject: `${domain.hostname} ${hit.field}`, reason }, at);
}
