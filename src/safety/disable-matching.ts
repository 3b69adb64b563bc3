// Live links whose target a new entry covers are disabled, found through links.target_domain's index: a refresh
// reads the links of the listed domains only, never all links.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Db } from "../db/ports.ts";
import { links } from "../db/tables.ts";
import { sourceName } from "./feeds/formats.ts";
import { setLinkStatus } from "./link-status.ts";
import { covers, normaliseUrl, targetDomainOf, type ThreatEntry } from "./matching.ts";

const CHUNK = 500;

/** Links from before target_domain, given theirs (once: later links are written with it), a chunk per transaction. */
export async function fillTargetDomains(database: Database): Promise<void> {
  for (;;) {
    const rows = await database.db.select({ id: links.id, targetUrl: links.targetUrl }).from(links).where(isNull(links.targetDomain)).limit(CHUNK);
    if (rows.length === 0) return;
    await database.transaction(async (tx) => {
      for (const row of rows) await tx.update(links).set({ targetDomain: targetDomainOf(row.targetUrl) ?? "" }).where(eq(links.id, row.id));
    });
  }
}

/** Disables, within `tx`, the active live links that `entries` of `source` cover; their addresses. */
export async function disableMatching(tx: Db, publicUrl: string, source: string, entries: ThreatEntry[], actor: string, at: Date): Promise<string[]> {
  const byDomain = new Map<string, ThreatEntry[]>();
  for (const entry of entries) byDomain.set(entry.domain, [...(byDomain.get(entry.domain) ?? []), entry]);
  const domains = [...byDomain.keys()];
  const addresses: string[] = [];
  for (let i = 0; i < domains.length; i += CHUNK) {
    const candidates = await tx
      .select({ id: links.id, targetUrl: links.targetUrl, targetDomain: links.targetDomain })
      .from(links)
      .where(and(inArray(links.targetDomain, domains.slice(i, i + CHUNK)), eq(links.deleted, false), eq(links.status, "active")));
    const hits = candidates.filter((link) => {
      const url = normaliseUrl(link.targetUrl);
      return url !== null && byDomain.get(link.targetDomain!)!.some((entry) => covers(entry, url, new URL(url).hostname));
    });
    const reason = `Listed by ${sourceName(source)}`;
    addresses.push(...(await setLinkStatus(tx, publicUrl, hits.map((link) => link.id), { status: "disabled", reason, actor, why: reason }, at)));
  }
  return addresses;
}
