// The one check every destination passes where it is written (a link's target, its rules' targets and expired
// address, a custom domain's root and not-found addresses; so the CLI's import and the API too): the address, and
// with CHECK_TARGET_REDIRECTS each hop of its redirects, against the feeds, the blocked hosts and Web Risk. A hit
// is a 422 naming the field and the source.
import { AppError } from "../http/errors.ts";
import type { SafetyDeps } from "./deps.ts";
import { findThreat } from "./find-threat.ts";

export async function checkTargetSafety(deps: SafetyDeps, targetUrl: string, field = "targetUrl"): Promise<void> {
  deps.counts.count({ check: true, hit: null, hits: 0 });
  const hops = deps.checkRedirects && deps.fetcher ? await deps.fetcher.redirectHops(targetUrl) : [];
  for (const url of [targetUrl, ...hops]) {
    const threat = await findThreat(deps.database.db, deps.webRisk, url);
    if (!threat) continue;
    deps.counts.count({ check: false, hit: threat.source, hits: 1 });
    const where = url === targetUrl ? "" : ` (the target redirects to ${url})`;
    throw new AppError(422, `${field}: This target cannot be linked: ${threat.message}${where}`, field);
  }
}
