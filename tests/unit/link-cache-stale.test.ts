// Stale beats down: while the database cannot be asked, /go's cache serves a live link past its maximum age, and
// a link it does not hold (or held as missing) fails, which /go answers with a 503 (src/go/go-answer.ts).
import { expect, test } from "bun:test";
import type { GoLinkRow, GoLinkSource } from "../../src/db/ports.ts";
import type { GoLink } from "../../src/link-cache/held-link.ts";
import { LinkCache } from "../../src/link-cache/link-cache.ts";
import { TestClock } from "../helpers/clock.ts";
import { createLogger } from "../../src/observability/log.ts";

const log = createLogger("text");

const row = (linkSlug: string, title: string) =>
  ({
    id: 1,
    userId: 1,
    userSlug: "a",
    linkSlug,
    targetUrl: "https://e.eu/",
    title,
    description: "d",
    version: 1,
  }) as unknown as GoLinkRow;

test("past its maximum age, a cached link is served while the database fails, and read afresh once it answers", async () => {
  let down = false;
  let title = "first";
  const source: GoLinkSource = {
    newestGoLinks: async () => [],
    mostViewedLinkIds: async () => [],
    goLinksByIds: async () => [],
    // Every address the test asks for passes the filter of existing addresses, so each is read from the source.
    goAddresses: async (onAddress) => ["a/live", "a/gone", "a/never-seen"].forEach(onAddress),
    findGoLink: async (_userSlug, linkSlug) => {
      if (down) throw Object.assign(new Error("Failed to connect"), { code: "ERR_POSTGRES_CONNECTION_REFUSED" });
      return linkSlug === "live" ? row("live", title) : null;
    },
  };
  const clock = new TestClock();
  const cache = new LinkCache(source, 1_000_000, clock, log, 60_000);
  expect(((await cache.get("a", "live")) as GoLink).title).toBe("first");
  expect(await cache.get("a", "gone")).toBeNull();

  down = true;
  title = "second";
  clock.advance(120_000);
  // Past its age: asked again, the database fails, the old entry is served.
  expect(cache.peek("a", "live")).toBeUndefined();
  expect(((await cache.get("a", "live")) as GoLink).title).toBe("first");
  // Known missing is no answer once old: the link may exist by now.
  expect(cache.get("a", "gone")).rejects.toThrow("Failed to connect");
  expect(cache.get("a", "never-seen")).rejects.toThrow("Failed to connect");

  down = false;
  expect(((await cache.get("a", "live")) as GoLink).title).toBe("second");
});
