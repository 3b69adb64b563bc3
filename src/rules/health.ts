// The link health job: every live link's target and rule targets, checked through the safe fetcher at a polite
// rate (one request per host at a time, LINK_HEALTH_HOST_GAP_MS apart, redirect hops and retries included:
// host-pacer.ts), by one node of the cluster (the job "link-health", src/compose/server-jobs.ts), each link once every
// LINK_HEALTH_EVERY_MS. Never from /go. Each link's outcome: src/rules/record-health.ts.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Clock } from "../clock.ts";
import type { Database } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { Paced, SafeFetcher } from "../safe-fetch/fetcher.ts";
import { createHostPacer } from "./host-pacer.ts";
import { parseGoRules } from "./model.ts";
import { recordHealth, type HealthOutcome } from "./record-health.ts";

export type HealthDeps = {
  database: Database;
  fetcher: Pick<SafeFetcher, "probe">;
  clock: Clock;
  /** PUBLIC_URL: link.broken's short URLs are built on it. */
  publicUrl: string;
  hostGapMs: number;
  /** Links checked less than this long ago are skipped (undefined: check every live link). */
  recheckAfterMs?: number;
};

/** Hosts checked side by side (each link grouped by its target's host); within one host, one request at a time. */
const HOSTS_AT_ONCE = 4;

type Check = { linkId: number; url: string };
/** `checkedUrl`: the target asked (the link's own or a rule's). */
type Answer = { ok: boolean; checkedUrl: string; httpStatus: number | null; finalUrl: string | null };

/** A target answers well when, after its redirects, it says 2xx or 3xx (a 304, say). */
async function probe(fetcher: HealthDeps["fetcher"], url: string, paced: Paced): Promise<Answer> {
  try {
    const { status, url: finalUrl } = await fetcher.probe(url, paced);
    return { ok: status < 400, checkedUrl: url, httpStatus: status, finalUrl };
  } catch {
    // Refused, unreachable or too slow: no HTTP status to show.
    return { ok: false, checkedUrl: url, httpStatus: null, finalUrl: null };
  }
}

/** One pass over every live link; returns how many links were checked and how many became broken. */
export async function checkLinkHealth(deps: HealthDeps): Promise<{ checked: number; becameBroken: number[] }> {
  const { linkRules, links } = tablesOf(deps.database.db);
  const rows = await deps.database.db
    .select({ id: links.id, targetUrl: links.targetUrl, goRules: linkRules.goRules })
    .from(links)
    .leftJoin(linkRules, eq(linkRules.linkId, links.id))
    .where(
      deps.recheckAfterMs === undefined
        ? eq(links.deleted, false)
        : and(
            eq(links.deleted, false),
            or(
              isNull(linkRules.healthCheckedAt),
              lt(linkRules.healthCheckedAt, new Date(deps.clock.now() - deps.recheckAfterMs)),
            ),
          ),
    );
  const byHost = new Map<string, Check[]>();
  for (const row of rows) {
    const urls = new Set([row.targetUrl, ...(parseGoRules(row.goRules)?.rules ?? []).map((rule) => rule.targetUrl)]);
    for (const url of urls) {
      if (!URL.canParse(url)) continue;
      const host = new URL(url).host;
      byHost.set(host, [...(byHost.get(host) ?? []), { linkId: row.id, url }]);
    }
  }
  // A link is as healthy as its worst target; the first failing one is what it shows.
  const outcomes = new Map<number, Answer>();
  const hosts = [...byHost.values()];
  const paced = createHostPacer(deps.hostGapMs);
  const checkHost = async (checks: Check[]) => {
    for (const check of checks) {
      const answer = await probe(deps.fetcher, check.url, paced);
      const before = outcomes.get(check.linkId);
      if (!before || (before.ok && !answer.ok)) outcomes.set(check.linkId, answer);
    }
  };
  const workers = Array.from({ length: Math.min(HOSTS_AT_ONCE, hosts.length) }, async () => {
    for (let next = hosts.shift(); next; next = hosts.shift()) await checkHost(next);
  });
  await Promise.all(workers);
  const becameBroken: number[] = [];
  const at = new Date(deps.clock.now());
  for (const [linkId, answer] of outcomes) {
    const outcome: HealthOutcome = { linkId, at, ...answer };
    if (await recordHealth(deps, outcome)) becameBroken.push(linkId);
  }
  return { checked: outcomes.size, becameBroken };
}

/**
 * How often the job "link-health" (src/compose/server-jobs.ts) looks for links due, at most: a restart (a deploy) never
 * postpones a daily check by a day. Each tick takes the links not checked for LINK_HEALTH_EVERY_MS.
 */
export const HEALTH_TICK_MAX_MS = 3_600_000;
