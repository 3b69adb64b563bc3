// The test passes of npm test, after its quick checks (format, tsc, import rules): the SQLite pass, the PostgreSQL
// pass and Playwright side by side, since none of them keeps the 2 cores busy alone (docs/decisions/0057);
// Chromium's apt install runs while the first two start. Each pass writes to a log file that is printed whole when
// the pass ends, so the lines of two passes never interleave. A failed pass fails the run, with its output shown.
// TEST_PASSES=serial runs them one after the other, in the order below (the old npm test). The failures are repeated
// at the very end, after the summary, since a CI log is often read from its tail.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Files that start their own PostgreSQL cluster whatever the pass's engine: run in the PostgreSQL pass (package.json's
 * test:postgres names them), the shorter of the two, rather than in the SQLite pass. Ignore patterns given to bun test
 * replace bunfig.toml's, so the Playwright specs are left out again here.
 */
const OWN_CLUSTER = ["tests/reliability/postgres-faults.test.ts", "tests/system/postgres-cluster.test.ts"];
const sqliteIgnores = ["tests/e2e/**", ...OWN_CLUSTER].map((path) => `--path-ignore-patterns='${path}'`).join(" ");

/** `after`: the passes that must have passed first. */
const PASSES = [
  { name: "sqlite", command: `bun test --timeout 30000 ${sqliteIgnores}`, after: [] },
  { name: "postgres", command: "npm run -s test:postgres", after: [] },
  { name: "chromium", command: "node scripts/ensure-browser.mjs", after: [] },
  { name: "playwright", command: "playwright test", after: ["chromium"] },
];

const serial = process.env.TEST_PASSES === "serial";
const logs = mkdtempSync(join(tmpdir(), "linkprev-test-passes-"));
const started = Date.now();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const running = new Set();

/** Runs one pass in its own process group (so a stop reaches its servers too); resolves to its exit code. */
function run(pass) {
  const log = join(logs, `${pass.name}.log`);
  const out = createWriteStream(log);
  const since = Date.now();
  console.log(`▶ ${pass.name}: ${pass.command} (output in ${log} until it ends)`);
  return new Promise((done) => {
    const child = spawn(pass.command, { shell: true, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on("close", (code, signal) => {
      running.delete(child);
      out.end(() => {
        const status = code ?? (signal ? 128 : 1);
        console.log(`\n■ ${pass.name} ${status === 0 ? "passed" : `FAILED (exit ${status})`} after ${seconds(since)}`);
        process.stdout.write(readFileSync(log, "utf8"));
        done({ name: pass.name, status, time: seconds(since), log });
      });
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
    process.exit(1);
  });

const results = new Map();
if (serial) {
  for (const pass of PASSES)
    results.set(
      pass.name,
      pass.after.every((name) => results.get(name)?.status === 0)
        ? await run(pass)
        : { name: pass.name, status: 1, time: `not run: ${pass.after.join(", ")} failed` },
    );
} else {
  const ended = new Map();
  const start = (pass) => {
    const waits = pass.after.map((name) => ended.get(name) ?? start(PASSES.find((p) => p.name === name)));
    const promise = Promise.all(waits).then((before) =>
      before.every((result) => result.status === 0)
        ? run(pass)
        : { name: pass.name, status: 1, time: `not run: ${pass.after.join(", ")} failed` },
    );
    ended.set(pass.name, promise);
    return promise;
  };
  for (const pass of PASSES) if (!ended.has(pass.name)) start(pass);
  for (const result of await Promise.all(ended.values())) results.set(result.name, result);
}

const failed = [...results.values()].filter((result) => result.status !== 0);
console.log(`\nTest passes (${serial ? "one after the other" : "side by side"}), ${seconds(started)} in all:`);
for (const result of results.values())
  console.log(`  ${result.name.padEnd(11)} ${result.status === 0 ? "passed" : "FAILED"}  ${result.time}`);
for (const result of failed) if (result.log) console.log(`\nWhat failed in ${result.name}:\n${failures(result.log)}`);
if (failed.length > 0) {
  console.log(`Failed: ${failed.map((result) => result.name).join(", ")} (their whole output is above)`);
  process.exit(1);
}

/** A failed pass's failures with the lines that explain them: Bun's "(fail)" lines, each after its error (what came
 * since the test before it, at most 15 lines), and Playwright's numbered failures; at most 5 of them. */
function failures(log) {
  const lines = readFileSync(log, "utf8").split("\n");
  const blocks = [];
  const seen = new Set(); // Bun lists its failures again at the end.
  let since = 0;
  lines.forEach((line, i) => {
    if (/^\((pass|skip|todo)\)/.test(line)) since = i + 1;
    else if (/^\(fail\)|^\s+\d+\) \[/.test(line) && !seen.has(line)) {
      seen.add(line);
      blocks.push(lines.slice(Math.max(since, i - 15), i + 1).join("\n"));
      since = i + 1;
    }
  });
  if (blocks.length === 0) return lines.slice(-20).join("\n");
  return blocks.slice(0, 5).join("\n\n") + (blocks.length > 5 ? `\n… and ${blocks.length - 5} more` : "");
}
