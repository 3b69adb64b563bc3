// Crash safety: mixed traffic, then kill -9 at seeded moments; after a restart on the same data directory the
// database is intact, every acknowledged link is there exactly, no image is orphaned, counters equal the stored
// views, and views lost are bounded by the last flush window. A graceful SIGTERM under load loses nothing.
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng } from "../helpers/images.ts";
import { seededRandom, type Random } from "../helpers/random.ts";
import { acceptTerms, freePort } from "../helpers/server.ts";
import { eventually, healthy, isTrue } from "../helpers/eventually.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const FLUSH_MS = 100;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const PERSON =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** Three people (all from 127.0.0.1): each is one daily unique visitor per link. */
const PEOPLE = [PERSON, PERSON.replace("131.0", "130.0"), PERSON.replace("131.0", "129.0")];
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";

async function startServer(dataDir: string, port: number) {
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", dataDir], {
    env: {
      ...process.env,
      VIEW_FLUSH_MS: String(FLUSH_MS),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_RATE_LIMIT: "100000",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  await healthy(`http://127.0.0.1:${port}`, { exited: () => child.exitCode });
  return child;
}

function adminToken(dataDir: string): string {
  // `admin migrate` makes the database on purpose; `admin token create` refuses to make one in a folder without it.
  Bun.spawnSync([process.execPath, cli, "admin", "migrate", "--data", dataDir]);
  const run = Bun.spawnSync([
    process.execPath,
    cli,
    "admin",
    "token",
    "create",
    "--email",
    "load@example.com",
    "--data",
    dataDir,
  ]);
  return run.stdout.toString().trim();
}

type Acked = { slug: string; title: string; description: string; targetUrl: string };

/** Drives creates, edits and /go hits until `stop()`; records what the server acknowledged. */
function drive(r: Random, url: string, token: string) {
  const acked = new Map<string, Acked>();
  const served: number[] = [];
  /** People's views served through the QR code's URL. */
  let scansServed = 0;
  let running = true;
  const png = makePng(120, 80);
  const auth = { authorization: `Bearer ${token}` };
  let n = 0;

  const writer = async () => {
    while (running) {
      const i = n++;
      const fields = {
        title: `Title ${i} ${r.int(0, 1e6)}`,
        description: `Description ${i}`,
        targetUrl: `https://example.com/${i}?q=${r.int(0, 1e6)}`,
      };
      const editable = [...acked.values()];
      try {
        if (editable.length > 0 && r.chance(0.3)) {
          const target = r.pick(editable);
          const next = { ...fields, customLinkSlug: target.slug };
          // An edit in flight may or may not land: only acknowledged values are checked.
          acked.delete(target.slug);
          const response = await fetch(`${url}/api/links/by-slug/${target.slug}`, {
            method: "PUT",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify(next),
          });
          if (response.ok) acked.set(target.slug, { slug: target.slug, ...fields });
        } else {
          const form = new FormData();
          for (const [k, v] of Object.entries(fields)) form.append(k, v);
          if (r.chance(0.1)) form.append("image", new File([png], "x.png", { type: "image/png" }));
          const response = await fetch(`${url}/api/links`, { method: "POST", headers: auth, body: form });
          if (response.status === 201) {
            const link = (await response.json()) as { linkSlug: string };
            acked.set(link.linkSlug, { slug: link.linkSlug, ...fields });
          }
        }
      } catch {
        // the server died mid-request
      }
    }
  };

  const visitor = async () => {
    while (running) {
      const links = [...acked.keys()];
      if (links.length === 0) {
        await Bun.sleep(5);
        continue;
      }
      try {
        const scan = r.chance(0.25);
        const agent = r.chance(0.3) ? CRAWLER : r.pick(PEOPLE);
        const response = await fetch(`${url}/go/load/${r.pick(links)}${scan ? "?qr=1" : ""}`, {
          redirect: "manual",
          headers: { "user-agent": agent },
        });
        await response.arrayBuffer();
        if (response.status === 200 || response.status === 302) served.push(performance.now());
        if (response.status === 302 && scan) scansServed++;
      } catch {
        // the server died mid-request
      }
    }
  };

  const workers = [writer(), writer(), visitor(), visitor(), visitor(), visitor()];
  return {
    acked,
    served,
    scansServed: () => scansServed,
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
  };
}

function checkDatabase(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  const integrity = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check;
  const links = db
    .query<{ slug: string; title: string; description: string; targetUrl: string; imageUrl: string | null }, []>(
      "SELECT link_slug AS slug, title, description, target_url AS targetUrl, image_url AS imageUrl FROM links WHERE deleted = 0",
    )
    .all();
  const views = db.query<{ n: number }, []>("SELECT count(*) AS n FROM views").get()!.n;
  const counters = db.query<{ n: number }, []>("SELECT coalesce(sum(human + bot), 0) AS n FROM view_rollups").get()!.n;
  // Rollups against the rows they count, per link, day and platform.
  const mismatched = db
    .query<{ n: number }, []>(
      `SELECT count(*) AS n FROM view_rollups r WHERE r.human + r.bot != (SELECT count(*) FROM views v WHERE v.link_id = r.link_id
       AND strftime('%Y-%m-%d', v.timestamp / 1000, 'unixepoch') = r.day AND coalesce(v.platform, '') = r.platform)`,
    )
    .get()!.n;
  // Daily unique visitors and scans against what they count: the day's stored hashes, and (one process, one
  // address) the distinct people among the stored views; the scan rows.
  const audienceMismatched = db
    .query<{ n: number }, []>(
      `SELECT count(*) AS n FROM view_rollups r WHERE r.platform = '' AND (
       r.unique_humans != (SELECT count(*) FROM view_visitors v WHERE v.link_id = r.link_id AND v.day = r.day)
       OR r.unique_humans != (SELECT count(DISTINCT user_agent_id) FROM views w WHERE w.link_id = r.link_id AND w.is_bot = 0
                                AND strftime('%Y-%m-%d', w.timestamp / 1000, 'unixepoch') = r.day)
       OR r.scans != (SELECT count(*) FROM views w WHERE w.link_id = r.link_id AND w.is_bot = 0 AND w.scan = 1
                        AND strftime('%Y-%m-%d', w.timestamp / 1000, 'unixepoch') = r.day))`,
    )
    .get()!.n;
  const { uniques, scans, scanRows } = db
    .query<{ uniques: number; scans: number; scanRows: number }, []>(
      `SELECT (SELECT coalesce(sum(unique_humans), 0) FROM view_rollups) AS uniques, (SELECT coalesce(sum(scans), 0) FROM view_rollups) AS scans,
            (SELECT count(*) FROM views WHERE scan = 1) AS scanRows`,
    )
    .get()!;
  db.close();
  return { integrity, links, views, counters, mismatched, audienceMismatched, uniques, scans, scanRows };
}

describe("kill -9 mid-stream", () => {
  for (const seed of [11, 23, 47]) {
    test(`kill point seed ${seed}`, async () => {
      const r = seededRandom(seed);
      const dataDir = mkdtempSync(join(tmpdir(), "linkprev-crash-"));
      dirs.push(dataDir);
      const token = adminToken(dataDir);
      const port = await freePort();
      // The token's user gets the slug "load" (from load@example.com).
      const server = await startServer(dataDir, port);
      await acceptTerms(`http://127.0.0.1:${port}`, token);
      const traffic = drive(r, `http://127.0.0.1:${port}`, token);
      // Killed at a random point once the traffic flows (a kill before any write would prove nothing).
      await eventually(
        () => isTrue(traffic.acked.size > 0 && traffic.served.length > 0, "links created and views served"),
        { what: "the traffic to flow" },
      );
      await Bun.sleep(r.int(100, 900));
      server.kill("SIGKILL");
      const killedAt = performance.now();
      await server.exited;
      await traffic.stop();

      const after = checkDatabase(join(dataDir, "linkprev.db"));
      expect(after.integrity).toBe("ok");
      // Every acknowledged create (and edit) is there with its exact fields.
      const stored = new Map(after.links.map((l) => [l.slug, l]));
      for (const link of traffic.acked.values()) expect(stored.get(link.slug)).toMatchObject(link);
      // Views lost: at most those served in the last unflushed window (plus the batch being written).
      const lost = traffic.served.length - after.views;
      const lastWindow = traffic.served.filter((t) => t > killedAt - 3 * FLUSH_MS).length;
      console.log(
        `seed ${seed}: ${traffic.acked.size} links acknowledged, ${traffic.served.length} views served, ${after.views} stored, ${lost} lost (bound: ${lastWindow} served in the last ${3 * FLUSH_MS} ms)`,
      );
      expect(lost).toBeGreaterThanOrEqual(0);
      expect(lost).toBeLessThanOrEqual(lastWindow);

      // Restart on the same data: the rollups have caught up with the rows (a crash can leave them behind,
      // never out of step), it serves, and no uploaded image is left without its link.
      const again = await startServer(dataDir, port);
      const restarted = checkDatabase(join(dataDir, "linkprev.db"));
      expect(restarted.views).toBe(after.views);
      expect(restarted.counters).toBe(after.views);
      expect(restarted.mismatched).toBe(0);
      expect(restarted.audienceMismatched).toBe(0);
      expect(restarted.scans).toBe(restarted.scanRows);
      const live = new Set(restarted.links.map((l) => l.imageUrl).filter(Boolean));
      for (const file of readdirSync(join(dataDir, "uploads"))) expect(live.has(`/uploads/${file}`)).toBe(true);
      const first = [...traffic.acked.values()][0];
      if (first)
        expect(
          (
            await fetch(`http://127.0.0.1:${port}/go/load/${first.slug}`, {
              redirect: "manual",
              headers: { "user-agent": PERSON },
            })
          ).status,
        ).toBe(302);
      again.kill("SIGTERM");
      await again.exited;
    }, 30_000);
  }
});

test("SIGTERM under load: every view served is stored", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "linkprev-term-"));
  dirs.push(dataDir);
  const token = adminToken(dataDir);
  const port = await freePort();
  const server = await startServer(dataDir, port);
  await acceptTerms(`http://127.0.0.1:${port}`, token);
  const traffic = drive(seededRandom(5), `http://127.0.0.1:${port}`, token);
  await eventually(() => isTrue(traffic.served.length > 0 && traffic.scansServed() > 0, "views and scans served"), {
    what: "the traffic to flow",
  });
  await Bun.sleep(300);
  server.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  await traffic.stop();
  const after = checkDatabase(join(dataDir, "linkprev.db"));
  console.log(`SIGTERM: ${traffic.served.length} views served, ${after.views} stored`);
  expect(after.integrity).toBe("ok");
  expect(after.views).toBe(traffic.served.length);
  expect(after.counters).toBe(after.views);
  expect(after.audienceMismatched).toBe(0);
  expect(after.scans).toBe(traffic.scansServed());
  expect(after.scans).toBeGreaterThan(0);
  expect(after.uniques).toBeGreaterThan(0);
}, 30_000);
