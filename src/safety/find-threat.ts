// Whether a URL is listed: by a feed or the operator (threat_entries, looked up by registrable domain), or by
// Google Web Risk when configured.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { sourceName } from "./feeds/formats.ts";
import { covers, domainOf, normaliseUrl } from "./matching.ts";
import type { WebRisk } from "./web-risk.ts";

export type Threat = { source: string; message: string };

export async function findListed(db: Db, target: string): Promise<Threat | null> {
  const { threatEntries } = tablesOf(db);
  const url = normaliseUrl(target);
  if (!url) return null;
  const host = new URL(url).hostname;
  const candidates = await db
    .select({ source: threatEntries.source, kind: threatEntries.kind, value: threatEntries.value })
    .from(threatEntries)
    .where(eq(threatEntries.domain, domainOf(host)));
  const hit = candidates.find((entry) => covers(entry, url, host));
  if (!hit) return null;
  const what = hit.kind === "url" ? "this address" : `the host ${hit.value}`;
  return { source: hit.source, message: `${sourceName(hit.source)} lists ${what} as unsafe` };
}

export async function findThreat(db: Db, webRisk: WebRisk | null, target: string): Promise<Threat | null> {
  const listed = await findListed(db, target);
  if (listed || !webRisk) return listed;
  const warning = await webRisk.lookup(target);
  return warning ? { source: "web-risk", message: warning } : null;
}
