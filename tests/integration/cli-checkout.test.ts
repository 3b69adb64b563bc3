// The CLI as a newcomer meets it: the admin commands find the server that runs (its port, its PUBLIC_URL) and
// refuse to make a new database in the wrong folder; scripts cannot delete by accident; the client's errors say
// what went wrong and what to check; the start banner names the database and the uploads store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath, cliUser, runCli } from "../helpers/cli.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { freePort, startTestServer, testEngine, type ApiClient, type TestServer } from "../helpers/server.ts";

const scratch = mkdtempSync(join(tmpdir(), "linkprev-cli-checkout-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI as a script would: no terminal on stdin or stdout. */
const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { env, stdin: "ignore" });

describe("admin commands beside a running server", () => {
  const dataDir = join(scratch, "data");
  let port: number;
  let databaseUrl: string | undefined;
  let child: ReturnType<typeof Bun.spawn>;
  let banner = "";
  let warnings = "";
  // PORT in the admin commands' environment is a port nothing listens on: the defaults would miss the server.
  let env: Record<string, string>;

  beforeAll(async () => {
    port = await freePort();
    databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
    env = { PORT: String(await freePort()), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    const serveEnv: Record<string, string | undefined> = { ...process.env, ...env, PUBLIC_URL: undefined };
    child = Bun.spawn([process.execPath, cliPath, "serve", "--port", String(port), "--data", dataDir], {
      env: serveEnv,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
    while (!banner.includes("Billing:")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve exited early:\n${banner}`);
      banner += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    void new Response(child.stderr as ReadableStream<Uint8Array>).text().then((text) => (warnings = text));
  });
  afterAll(async () => {
    child.kill("SIGTERM");
    await child.exited;
  });

  test("admin health checks the server on its real port, found through the data directory", async () => {
    const { code, stdout } = await run(["admin", "health", "--data", dataDir], env);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`ok (http://127.0.0.1:${port})`);
  });

  test("admin login-link prints a link on the server's own address, which signs in", async () => {
    const { code, stdout } = await run(["admin", "login-link", "--email", "ana@example.com", "--data", dataDir], env);
    expect(code).toBe(0);
    const link = stdout.trim();
    expect(link).toStartWith(`http://localhost:${port}/login/`);
    const token = link.split("/login/")[1]!;
    const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/login-link`, {
      method: "POST",
      body: new URLSearchParams({ token }),
      redirect: "manual",
    });
    expect(signIn.status).toBe(303);
  });

  test("the address file is private to the server's user", () => {
    expect(statSync(join(dataDir, "server.json")).mode & 0o777).toBe(0o600);
  });

  test("the start banner names the database and the uploads store", () => {
    if (databaseUrl)
      expect(banner).toContain(`Database: PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`);
    else expect(banner).toContain(`Database: SQLite ${join(dataDir, "linkprev.db")}`);
    expect(banner).toContain(`Uploads: the folder ${join(dataDir, "uploads")} (UPLOADS_STORE=dir)`);
  });

  test("once stopped, health says which address did not answer, and the address file is gone", async () => {
    child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    // Read only now: stderr ends with the process.
    if (databaseUrl) expect(warnings).toContain("PUBLIC_URL is not set: this node calls itself");
    else expect(warnings).not.toContain("PUBLIC_URL is not set");
    expect(existsSync(join(dataDir, "server.json"))).toBe(false);
    const { code, stderr } = await run(["admin", "health", "--data", dataDir], env);
    expect(code).toBe(1);
    expect(stderr).toContain(`LinkPrev is not healthy at http://127.0.0.1:${env.PORT} (no answer)`);
  });
});

test("admin login-link and token create in a folder with no database refuse, and create none", async () => {
  const wrong = join(scratch, "wrong-folder");
  for (const args of [
    ["admin", "login-link", "--email", "ana@example.com"],
    ["admin", "token", "create", "--email", "ana@example.com"],
  ]) {
    const { code, stderr } = await run([...args, "--data", wrong], { DATABASE_URL: "" });
    expect(code).toBe(2);
    expect(stderr).toContain(`No LinkPrev database in ${wrong}`);
    expect(stderr).toContain("--data");
  }
  expect(existsSync(wrong) ? readdirSync(wrong) : []).toEqual([]);
});

describe("client commands", () => {
  let server: TestServer;
  let client: ApiClient;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client, env } = await cliUser(server, "scripted", join(scratch, "config")));
    const created = await client.call("/api/links", {
      method: "POST",
      json: { title: "Keep me", description: "d", targetUrl: "https://example.com/", customLinkSlug: "keep-me" },
    });
    expect(created.status).toBe(201);
  });
  afterAll(() => server.close());

  test("links delete with no terminal and no --yes refuses and the link keeps working; --yes deletes", async () => {
    const refused = await run(["links", "delete", "keep-me"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "Not deleted: no terminal to confirm on; to delete keep-me from a script, add --yes",
    );
    expect((await client.call("/api/links/by-slug/keep-me")).status).toBe(200);
    const deleted = await run(["links", "delete", "keep-me", "--yes"], env);
    expect(deleted.code).toBe(0);
    expect((await client.call("/api/links/by-slug/keep-me")).status).toBe(404);
  });

  test("links export prints CSV without being asked for a format", async () => {
    const { code, stdout } = await run(["links", "export"], env);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toContain("slug");
    expect(stdout.split("\n")[0]).toContain(",");
  });

  test("links create prints the card's lint warnings on stderr, the short URL alone on stdout", async () => {
    const { code, stdout, stderr } = await run(
      ["links", "create", "--target", "https://example.com/post", "--title", "T", "--description", "d"],
      env,
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^http:\/\/\S+\/go\/scripted\/\S+$/);
    expect(stderr).toStartWith("Preview warnings:\n");
    expect(stderr).toMatch(/^ {2}(info|warning|error) +\S.*\(.+\)$/m);
  });

  test("login with a token the server refuses says so, and stores nothing", async () => {
    const config = join(scratch, "login-config");
    const { code, stderr } = await run(["login", "--server", server.url, "--token", "lp_not-a-real-token"], {
      XDG_CONFIG_HOME: config,
      LINKPREV_SERVER: "",
      LINKPREV_TOKEN: "",
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`${server.url} refused the token (HTTP 401)`);
    expect(existsSync(join(config, "linkprev", "config.json"))).toBe(false);
  });

  test("a server that refuses the connection is named, with what to check", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const { code, stderr } = await run(["links", "list"], { ...env, LINKPREV_SERVER: nowhere });
    expect(code).toBe(3);
    expect(stderr).toContain(`Cannot reach the LinkPrev server at ${nowhere}`);
    expect(stderr).toContain("Check that the server is running");
    expect(stderr).toContain("it comes from LINKPREV_SERVER");
  });
});
