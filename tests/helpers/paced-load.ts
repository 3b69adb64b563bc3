// A paced load for the fault tests (tests/reliability/): people and crawlers on known links, unknown addresses, and
// API writes, each at its own pace, noting every answer. What was served is what must be counted in the end.
import { apiCall } from "./nodes.ts";

const PERSON = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";

export type LoadResult = {
  /** Person views served (302) and crawler views served (200) on the known links. */
  people: number;
  crawlers: number;
  /** Every status seen, by what was asked ("go", "unknown", "write", "read"), with how often. */
  statuses: Map<string, number>;
  /** Links the API acknowledged (201) while the load ran, by slug. */
  created: string[];
};

/** The answers a fault may give: anything else (a 500, a 502, a reset connection) fails the test. */
export const ALLOWED = new Set([
  "go 302",
  "go 200",
  "go 503",
  "unknown 404",
  "unknown 503",
  "write 201",
  "write 503",
  "read 200",
  "read 503",
]);

export function unexpectedStatuses(result: LoadResult): string[] {
  return [...result.statuses.entries()]
    .filter(([status]) => !ALLOWED.has(status))
    .map(([status, n]) => `${status} ×${n}`);
}

/**
 * Starts the load on `baseUrl()` (asked again per request, so a restarted node is followed): `goPerSecond` /go
 * requests (every third a crawler, every tenth an unknown address) and `writesPerSecond` link creations and list reads.
 * `stop()` waits for the requests in flight and returns what was served.
 */
export function pacedLoad(options: {
  baseUrl: () => string;
  token: string;
  userSlug: string;
  linkSlugs: string[];
  goPerSecond: number;
  writesPerSecond: number;
}) {
  const result: LoadResult = { people: 0, crawlers: 0, statuses: new Map(), created: [] };
  const inFlight = new Set<Promise<void>>();
  const note = (kind: string, status: number | string) =>
    result.statuses.set(`${kind} ${status}`, (result.statuses.get(`${kind} ${status}`) ?? 0) + 1);
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  let n = 0;
  const goOnce = async () => {
    const i = n++;
    const unknown = i % 10 === 9;
    const crawler = i % 3 === 2;
    const slug = unknown ? `missing-${i}` : options.linkSlugs[i % options.linkSlugs.length]!;
    const kind = unknown ? "unknown" : "go";
    try {
      const response = await fetch(`${options.baseUrl()}/go/${options.userSlug}/${slug}`, {
        redirect: "manual",
        headers: { "user-agent": crawler ? CRAWLER : PERSON },
      });
      await response.arrayBuffer();
      note(kind, response.status);
      if (!unknown && response.status === 302) result.people++;
      if (!unknown && response.status === 200) result.crawlers++;
    } catch (error) {
      note(kind, `refused (${(error as Error).message})`);
    }
  };
  let w = 0;
  const writeOnce = async () => {
    const i = w++;
    try {
      if (i % 2 === 0) {
        const slug = `load-${i}-${crypto.randomUUID().slice(0, 8)}`;
        const response = await apiCall(options.baseUrl(), options.token, "/api/links", {
          method: "POST",
          json: {
            targetUrl: `https://example.com/${slug}`,
            title: slug,
            description: "paced load",
            customLinkSlug: slug,
          },
        });
        await response.arrayBuffer();
        note("write", response.status);
        if (response.status === 201) result.created.push(slug);
      } else {
        const response = await apiCall(options.baseUrl(), options.token, "/api/links");
        await response.arrayBuffer();
        note("read", response.status);
      }
    } catch (error) {
      note("write", `refused (${(error as Error).message})`);
    }
  };
  const goTimer = setInterval(() => track(goOnce()), 1000 / options.goPerSecond);
  const writeTimer = setInterval(() => track(writeOnce()), 1000 / options.writesPerSecond);
  return {
    result,
    async stop(): Promise<LoadResult> {
      clearInterval(goTimer);
      clearInterval(writeTimer);
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      return result;
    },
  };
}
