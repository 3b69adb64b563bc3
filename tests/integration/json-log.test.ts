// LOG_FORMAT=json: everything `linkprev serve` writes, on stdout and stderr, from start-up to a graceful stop, is a
// JSON line a log collector can read: start-up lines, request lines, warnings (src/observability/log.ts).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { healthy } from "../helpers/eventually.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { freePort, testEngine } from "../helpers/server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const dataDir = mkdtempSync(join(tmpdir(), "linkprev-json-log-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Line = { time: string; level: string; msg: string };

test("with LOG_FORMAT=json every line written is JSON: start-up, a request, a warning and the stop", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", dataDir], {
    env: {
      ...process.env,
      LOG_FORMAT: "json",
      // A deprecated setting: the server says so in a warning at start.
      LINK_CACHE_SIZE: "1000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = new Response(child.stdout).text();
  const stderr = new Response(child.stderr).text();
  await healthy(url, { exited: () => child.exitCode });
  expect((await fetch(`${url}/api/links`)).status).toBe(401);
  child.kill("SIGTERM");
  expect(await child.exited).toBe(0);

  const parse = (text: string) =>
    text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        try {
          return JSON.parse(line) as Line;
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
      });
  const out = parse(await stdout);
  const err = parse(await stderr);
  for (const line of [...out, ...err]) expect(typeof line.time).toBe("string");
  expect(out.some((line) => line.level === "info" && line.msg.startsWith("LinkPrev listening on"))).toBe(true);
  expect(out.some((line) => line.msg === "request" && (line as Line & { status: number }).status === 401)).toBe(true);
  expect(err.some((line) => line.level === "warn" && line.msg.includes("LINK_CACHE_SIZE is deprecated"))).toBe(true);
  expect(out.some((line) => line.msg === "SIGTERM: storing buffered views and stopping")).toBe(true);
});
