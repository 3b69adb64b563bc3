// The one check a link's target passes where links change (create, update, and so the CLI's import and the
// API): the target, and with CHECK_TARGET_REDIRECTS each hop of its redirects, against the feeds, the blocked
// hosts and Web Risk. A hit is a 422 naming the source.
import { AppError } from "../http/errors.ts";
import type { SafetyDeps } from "./deps.ts";
import { findThreat } from "./find-threat.ts";

export async function checkTargetSafety(deps: SafetyDeps, targetUrl: string): Promise<void> {
  deps.counts.count({ check: true, hit: null, hits: 0 });
  const hops = deps.checkRedirects && deps.fetcher ? await deps.fetcher.redirectHops(targetUrl) : [];
  for (const url of [targetUrl, ...hops]) {
    const threat = await findThreat(deps.db, deps.webRisk, url);
    if (!threat) continue;
    deps.counts.count({ check: false, hit: threat.source, hits: 1 });
    const where = url === targetUrl ? "" : ` (the target redirects to ${url})`;
    throw new AppError(422, `targetUrl: This target cannot be linked: ${threat.message}${where}`, "targetUrl");
  }
}
