// `linkprev serve` as a real process: start-up errors, the owner's start-up sign-in link, and a graceful stop that
// stores every buffered view.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { healthy } from "../helpers/eventually.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { freePort, seedLink, seedUser, testEngine } from "../helpers/server.ts";
import { postgresTestDb, sqliteTestDb } from "../helpers/test-db.ts";
import { openSqlitePlatform } from "../../src/db/sqlite/engine.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const dataDir = mkdtempSync(join(tmpdir(), "linkprev-serve-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("--version and -V print the version and release, as every commander CLI does", async () => {
  for (const flag of ["--version", "-V"]) {
    const child = Bun.spawn([process.execPath, cli, flag], {
      env: { ...process.env, RELEASE: "abc1234" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await child.exited).toBe(0);
    expect((await new Response(child.stdout).text()).trim()).toBe("0.1.0-abc1234");
  }
});

test("a bad setting stops start-up with one line naming the variable", async () => {
  const child = Bun.spawn([process.execPath, cli, "serve"], {
    env: { ...process.env, PORT: "not-a-port" },
    stderr: "pipe",
    stdout: "pipe",
  });
  expect(await child.exited).toBe(2);
  const stderr = (await new Response(child.stderr).text()).trim();
  expect(stderr.split("\n").length).toBe(1);
  expect(stderr).toContain("PORT");
});

test("SIGTERM under load stores every counted view", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // On the PostgreSQL pass the process runs on its own throwaway database (uploads stay in the data directory).
  const databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
  // The link exists before the process starts: it learns of later links only from its own announcements.
  if (!databaseUrl) {
    const platform = openSqlitePlatform(join(dataDir, "linkprev.db"));
    await platform.database.migrate();
    await platform.database.close();
  }
  const sql = databaseUrl ? postgresTestDb(databaseUrl) : sqliteTestDb(join(dataDir, "linkprev.db"));
  const user = await seedUser(sql, { userSlug: "bob" });
  const linkId = await seedLink(sql, user.id, { linkSlug: "l1" });
  // A long window, so that the views are still buffered when the signal arrives.
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", dataDir], {
    env: {
      ...process.env,
      VIEW_FLUSH_MS: "10000",
      VIEW_BATCH_MAX: "100000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  await healthy(url, { exited: () => child.exitCode });
  const viewCount = async () => (await sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM views"))!.n;

  const requests = 400;
  const statuses = await Promise.all(
    Array.from({ length: requests }, (_, i) =>
      fetch(`${url}/go/bob/l1`, {
        redirect: "manual",
        headers: {
          "user-agent":
            i % 2 ? "Twitterbot/1.0" : "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
        },
      }).then(async (r) => (await r.arrayBuffer(), r.status)),
    ),
  );
  expect(statuses.every((s) => s === 200 || s === 302)).toBe(true);
  expect(await viewCount()).toBe(0);

  child.kill("SIGTERM");
  expect(await child.exited).toBe(0);
  expect(await viewCount()).toBe(requests);
  expect(
    await sql.get<{ h: number; b: number }>(
      "SELECT CAST(sum(human) AS INTEGER) AS h, CAST(sum(bot) AS INTEGER) AS b FROM view_rollups WHERE link_id = ?",
      linkId,
    ),
  ).toEqual({ h: 200, b: 200 });
  await sql.close();
});

/**
 * Starts `linkprev serve` with piped (not a terminal) output; resolves once it has printed its start-up lines.
 * Piped, the log is JSON lines (LOG_FORMAT's default off a terminal): `output` holds their messages, one a line.
 */
async function startPiped(directory: string, databaseUrl: string | undefined, flags: string[] = []) {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", directory, ...flags], {
    env: { ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let lines = "";
  // "Billing: …" is the last start-up line.
  while (!/Billing:[^\n]*\n/.test(lines)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited early:\n${lines}`);
    lines += new TextDecoder().decode(value);
  }
  const output = lines
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { msg: string }).msg)
    .join("\n");
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    stop: async () => {
      child.kill("SIGTERM");
      expect(await child.exited).toBe(0);
    },
  };
}

test("the owner's sign-in link is never printed into piped logs; --print-login-link prints it until the owner has signed in", async () => {
  const directory = mkdtempSync(join(tmpdir(), "linkprev-serve-link-"));
  const databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
  try {
    const piped = await startPiped(directory, databaseUrl);
    expect(piped.output).not.toContain("/login/");
    // The link cache fits in its first page here: one start-up line says so, not two.
    expect(piped.output.match(/^Link cache:.*$/gm)).toEqual([expect.stringContaining("links held at start")]);
    // The commands it suggests name this server's data directory: they work from any folder.
    expect(piped.output).toContain(
      `Owner sign-in link: not printed into logs; get one with linkprev admin login-link --email E --data ${directory}, or start with --print-login-link`,
    );
    expect(piped.output).toContain(
      `sign in with a one-time link (linkprev admin login-link --email E --data ${directory})`,
    );
    await piped.stop();

    const asked = await startPiped(directory, databaseUrl, ["--print-login-link"]);
    const token = /Owner sign-in link \(one use, 15 minutes\): \S+\/login\/(\S+)/.exec(asked.output)?.[1];
    expect(token).toBeDefined();
    const signIn = await fetch(`${asked.url}/api/auth/login-link`, {
      method: "POST",
      body: new URLSearchParams({ token: token! }),
      redirect: "manual",
    });
    expect(signIn.status).toBe(303);
    await asked.stop();

    const after = await startPiped(directory, databaseUrl, ["--print-login-link"]);
    expect(after.output).not.toContain("/login/");
    expect(after.output).toContain(
      `Owner sign-in link: not printed, the owner has signed in before; get one with linkprev admin login-link --email E --data ${directory}`,
    );
    await after.stop();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
