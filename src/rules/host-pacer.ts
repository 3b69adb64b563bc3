// The link health job's politeness (src/rules/health.ts): one request per target host at a time, and
// LINK_HEALTH_HOST_GAP_MS after each before the next one starts. It paces every request of a check (its redirect
// hops, its GET after a refused HEAD), on whichever host each one lands.
import type { Paced } from "../safe-fetch/fetcher.ts";

/** A pacer for one pass of the job. */
export function createHostPacer(gapMs: number): Paced {
  /** Per host: settles when the next request may start (the gap after the last one ended). */
  const free = new Map<string, Promise<void>>();
  return async (url, request) => {
    const host = new URL(url).host;
    const before = free.get(host);
    let release!: () => void;
    free.set(host, new Promise((resolve) => (release = resolve)));
    await before;
    try {
      return await request();
    } finally {
      setTimeout(release, gapMs);
    }
  };
}
