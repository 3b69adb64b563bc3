// A link's earlier addresses in the /go cache over the real SQLite engine (docs/decisions/0047): the filter built at
// start knows them (an address never had is still answered without a read), an old address serves the link, a
// dropped one is RETIRED (410), a moved one carries the domain it was on, and a change announced for the link's own
// address drops its copies at the old ones.
import { expect, test } from "bun:test";
import { linkChange } from "../../src/db/change.ts";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlitePlatform } from "../../src/db/sqlite/engine.ts";
import { LinkCache, RETIRED } from "../../src/link-cache/link-cache.ts";
import { systemClock } from "../../src/clock.ts";
import { createLogger } from "../../src/observability/log.ts";

const log = createLogger("text");

test("old addresses are known at start, serve the link, and follow a change announced for its address", async () => {
  const dir = mkdtempSync(join(tmpdir(), "linkprev-earlier-"));
  const platform = openSqlitePlatform(join(dir, "linkprev.db"));
  await platform.database.migrate();
  const sqlite = new Database(join(dir, "linkprev.db"));
  try {
    sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
    sqlite.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
    sqlite.run(
      "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'new', 'https://e.eu/1', 't', 'd')",
    );
    sqlite.run(
      "INSERT INTO link_old_addresses (user_id, workspace_id, link_id, link_slug, domain_id) VALUES (1, 1, 1, 'old', NULL), (1, 1, NULL, 'gone', NULL), (1, 1, 1, 'new', 7)",
    );
    const cache = new LinkCache(platform.goLinks, 1 << 20, systemClock, log);
    await cache.warm();

    const old = await cache.get("a", "old");
    expect(old).toMatchObject({ id: 1, linkSlug: "new", targetUrl: "https://e.eu/1", domainId: null });
    expect(await cache.get("a", "gone")).toBe(RETIRED);
    expect(await cache.get("a", "new@7")).toMatchObject({ id: 1, domainId: 7 });
    const reads = cache.misses;
    expect(await cache.get("a", "never")).toBeNull();
    expect(cache.misses).toBe(reads);

    // Held at the old address now; the link's own address is what a change announces.
    expect(cache.peek("a", "old")).toBe(old);
    sqlite.run("UPDATE links SET target_url = 'https://e.eu/2' WHERE id = 1");
    cache.invalidate(linkChange("a", "new"));
    expect(await cache.get("a", "old")).toMatchObject({ targetUrl: "https://e.eu/2" });
  } finally {
    sqlite.close();
    await platform.database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
