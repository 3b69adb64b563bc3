// `linkprev serve` as a real process: start-up errors, and a graceful stop that stores every buffered view.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, seedLink, seedUser } from "../helpers/server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const dataDir = mkdtempSync(join(tmpdir(), "linkprev-serve-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function waitForServer(url: string) {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error("server did not start");
}

test("--version and -V print the version and release, as every commander CLI does", async () => {
  for (const flag of ["--version", "-V"]) {
    const child = Bun.spawn([process.execPath, cli, flag], { env: { ...process.env, RELEASE: "abc1234" }, stdout: "pipe", stderr: "pipe" });
    expect(await child.exited).toBe(0);
    expect((await new Response(child.stdout).text()).trim()).toBe("0.1.0-abc1234");
  }
});

test("a bad setting stops start-up with one line naming the variable", async () => {
  const child = Bun.spawn([process.execPath, cli, "serve"], { env: { ...process.env, PORT: "not-a-port" }, stderr: "pipe", stdout: "pipe" });
  expect(await child.exited).toBe(2);
  const stderr = (await new Response(child.stderr).text()).trim();
  expect(stderr.split("\n").length).toBe(1);
  expect(stderr).toContain("PORT");
});

test("SIGTERM under load stores every counted view", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // A long window, so that the views are still buffered when the signal arrives.
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", dataDir], {
    env: { ...process.env, VIEW_FLUSH_MS: "10000", VIEW_BATCH_MAX: "100000" },
    stdout: "pipe",
    stderr: "pipe",
  });
  await waitForServer(url);
  const sql = new Database(join(dataDir, "linkprev.db"));
  sql.run("PRAGMA busy_timeout = 5000");
  const user = seedUser(sql, { userSlug: "bob" });
  const linkId = seedLink(sql, user.id, { linkSlug: "l1" });

  const requests = 400;
  const statuses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      fetch(`${url}/go/bob/l1`, { redirect: "manual", headers: { "user-agent": i % 2 ? "Twitterbot/1.0" : "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" } }).then(
        async (r) => (await r.arrayBuffer(), r.status),
      ),
    ),
  );
  expect(statuses.every((s) => s === 200 || s === 302)).toBe(true);
  expect(sql.query<{ n: number }, []>("SELECT count(*) AS n FROM views").get()!.n).toBe(0);

  child.kill("SIGTERM");
  expect(await child.exited).toBe(0);
  expect(sql.query<{ n: number }, []>("SELECT count(*) AS n FROM views").get()!.n).toBe(requests);
  expect(sql.query<{ h: number; b: number }, [number]>("SELECT sum(human) AS h, sum(bot) AS b FROM view_rollups WHERE link_id = ?").get(linkId)).toEqual({ h: 200, b: 200 });
  sql.close();
});
