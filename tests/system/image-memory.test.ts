// Image work within a memory budget (decision 0043), measured on a real server process: ten 36-megapixel uploads at
// once keep it within 700 MB of its idle resident size (at rest after small uploads: its codecs loaded), and a small
// upload sent beside them does not wait for them. Resident memory is the server's own (/proc/<pid>/status of the
// `linkprev serve` child).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { blackPng, makePng } from "../helpers/images.ts";
import { apiCall, startNode, stopNode, type Node } from "../helpers/nodes.ts";
import { seedApiToken, seedUser } from "../helpers/server.ts";
import { sqliteTestDb } from "../helpers/test-db.ts";

/** The figure the issue asks for, over the idle server. */
const WITHIN_MB = 700;
/** Far past the figure: the server is stopped there, so that the old code cannot take the machine's memory. */
const STOP_AT_MB = 2500;

let node: Node;
let tokens: string[];

beforeAll(async () => {
  // Two app workers: the budget is the process's, not each worker's.
  node = await startNode({ APP_WORKERS: "2", LOG_FORMAT: "off" });
  const sql = sqliteTestDb(join(node.dataDir, "linkprev.db"));
  tokens = [];
  for (const _ of [1, 2]) tokens.push((await seedApiToken(sql, (await seedUser(sql)).id)).token);
  await sql.close();
});
afterAll(() => stopNode(node, { signal: "SIGKILL" }));

const statusMb = (field: "VmRSS" | "VmHWM") =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${node.child.pid}/status`, "utf8"))![1]) / 1024;

function upload(
  token: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<{ status: number; ms: number; at: number }> {
  const form = new FormData();
  for (const [key, value] of Object.entries({
    title: "Spring sale",
    description: "Everything 20 % off",
    targetUrl: "https://shop.example.com/sale",
  }))
    form.append(key, value);
  form.append("image", new File([bytes], name, { type: "image/png" }));
  const start = performance.now();
  // Status 0: no answer (the server was stopped for taking too much memory).
  const answered = (status: number) => ({ status, ms: performance.now() - start, at: performance.now() });
  return apiCall(node.url, token, "/api/links", { method: "POST", form }).then(
    async (response) => (await response.arrayBuffer(), answered(response.status)),
    () => answered(0),
  );
}

test("ten 36-megapixel uploads at once stay within 700 MB of the idle server, and a small upload beside them does not wait for them", async () => {
  const [bigUser, smallUser] = tokens as [string, string];
  const large = blackPng(6000, 6000);
  const small = makePng(1200, 630);
  expect(large.byteLength).toBeLessThan(200_000);
  const cold = statusMb("VmRSS");
  // Idle means at rest after serving: two small uploads at once, one per app worker, load each one's codecs.
  expect(
    (await Promise.all([upload(smallUser, "a.png", small), upload(smallUser, "b.png", small)])).map((u) => u.status),
  ).toEqual([201, 201]);
  // The small upload alone: what "not waiting" is measured against.
  const alone = await upload(smallUser, "card.png", small);
  expect(alone.status).toBe(201);
  const idle = statusMb("VmRSS");

  let peak = 0;
  let stopped = false;
  const sampler = setInterval(() => {
    if (stopped) return;
    peak = Math.max(peak, statusMb("VmRSS") - idle);
    if (peak > STOP_AT_MB) {
      stopped = true;
      node.child.kill("SIGKILL");
    }
  }, 20);
  try {
    const bigs = Array.from({ length: 10 }, (_, i) => upload(bigUser, `big-${i}.png`, large));
    // Beside them: sent once the server is decoding (its memory has risen), so the large ones are ahead of it.
    while (!stopped && statusMb("VmRSS") - idle < 100) await Bun.sleep(10);
    const beside = await upload(smallUser, "card.png", small);
    const done = await Promise.all(bigs);
    if (!stopped) peak = Math.max(peak, statusMb("VmHWM") - idle);
    console.log(
      `cold ${cold.toFixed(0)} MB, idle ${idle.toFixed(0)} MB; peak ${peak.toFixed(0)} MB over it; small upload alone ${alone.ms.toFixed(0)} ms, beside ten large ${beside.ms.toFixed(0)} ms`,
    );

    expect(peak).toBeLessThan(WITHIN_MB);
    expect(stopped).toBe(false);
    expect(done.map((d) => d.status)).toEqual(Array(10).fill(201));
    expect(beside.status).toBe(201);
    // It did not queue behind the large ones: at most one of them was answered before it.
    expect(done.filter((d) => d.at < beside.at).length).toBeLessThanOrEqual(1);
    // The product's 3 s, as a ratio to the same upload alone, so that a loaded machine does not fail it.
    expect(beside.ms).toBeLessThan(Math.max(3000, 3 * alone.ms));
  } finally {
    clearInterval(sampler);
  }
}, 600_000);
