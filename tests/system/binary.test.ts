// The self-hosting path end to end: build the single binary, run it from an empty directory, and drive it with
// its own client commands as a new user would.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng } from "../helpers/images.ts";
import { freePort } from "../helpers/server.ts";
import { eventually, healthy } from "../helpers/eventually.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "linkprev-binary-"));
const configHome = join(dir, "config");
const binary = join(dir, "linkprev");
let server: ReturnType<typeof Bun.spawn>;
let url = "";
let token = "";

type Run = { code: number; stdout: string; stderr: string };
async function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = Bun.spawn([binary, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_CONFIG_HOME: configHome, ...env },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

beforeAll(async () => {
  const build = Bun.spawnSync([process.execPath, join(root, "scripts/build-binary.ts")], { cwd: root, stderr: "pipe" });
  if (!build.success) throw new Error(`build failed: ${build.stderr}`);
  copyFileSync(join(root, "dist/linkprev"), binary);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = Bun.spawn([binary, "serve", "--port", String(port)], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", PUBLIC_URL: url, NEW_ACCOUNT_LINKS: "0", TARGET_HOST_LINKS_PER_HOUR: "0" },
    stdout: "pipe",
    stderr: "pipe",
  });
  await healthy(url, { exited: () => server.exitCode });
  // Beside the running server, in its folder: the admin commands refuse to create a database of their own.
  token = (await run(["admin", "token", "create", "--email", "cli@example.com", "--name", "laptop"])).stdout;
  // The token's new user accepts the terms once, as a CLI user does, before any change.
  const accepted = await run(["account", "accept-terms", "--yes"], { LINKPREV_SERVER: url, LINKPREV_TOKEN: token });
  if (accepted.code !== 0) throw new Error(`accept-terms: ${accepted.stderr}`);
}, 60_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("the binary", () => {
  test("serves the full app from an empty directory, with the data directory created on first start", async () => {
    expect(token).toStartWith("lp_");
    expect(statSync(join(dir, "data", "linkprev.db")).isFile()).toBe(true);
    const landing = await (await fetch(`${url}/`)).text();
    // No Google configured: the call to action names the sign-in this instance has.
    expect(landing).toContain("Sign in with a one-time link");
    // Without billing the landing page has no island, so no script: its stylesheet shows the built assets are inside.
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/[^"]+)"/.exec(landing)![1];
    expect((await fetch(`${url}${stylesheet}`)).status).toBe(200);
    const version = await (await fetch(`${url}/api/version`)).json();
    expect(version.release).not.toBe("dev");
    // The CLI names the same release as the server it was built with.
    const printed = await run(["--version"]);
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(`${version.major}.${version.minor}.${version.patch}-${version.release}`);
  });

  test("login, whoami, create with an image, list, show, stats after visits, delete", async () => {
    const login = await run(["login", "--server", url, "--token", token]);
    expect(login.code).toBe(0);
    expect(statSync(join(configHome, "linkprev", "config.json")).mode & 0o777).toBe(0o600);
    expect((await run(["whoami"])).stdout).toContain("cli@example.com");

    const image = join(dir, "cover.png");
    writeFileSync(image, makePng(300, 200));
    const created = await run([
      "links",
      "create",
      "--target",
      "https://example.com/post",
      "--title",
      "My post",
      "--description",
      "Read it",
      "--slug",
      "post",
      "--image",
      image,
    ]);
    expect(created).toMatchObject({ code: 0, stdout: `${url}/go/cli/post` });

    const list = JSON.parse((await run(["links", "list", "--json"])).stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ linkSlug: "post", title: "My post", imageSource: "upload" });
    expect((await fetch(`${url}${list[0].imageUrl}`)).headers.get("content-type")).toBe("image/jpeg");

    const show = await run(["links", "show", "post"]);
    expect(show.stdout).toContain("Target       https://example.com/post");

    await fetch(`${url}/go/cli/post`, { headers: { "user-agent": "Twitterbot/1.0" } }).then((r) => r.text());
    await fetch(`${url}/go/cli/post`, {
      redirect: "manual",
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" },
    });
    // The views reach the database when the writer's window closes.
    const stats = await eventually(
      async () => {
        const shown = JSON.parse((await run(["links", "stats", "post", "--days", "7", "--json"])).stdout);
        expect(shown.days.at(-1)).toMatchObject({ human: 1, bot: 1 });
        return shown;
      },
      { what: "both views counted" },
    );
    expect(stats.platforms).toEqual([{ platform: "x", count: 1 }]);
    expect((await run(["links", "stats", "post"])).stdout).toContain("1 human, 1 bot");

    expect((await run(["links", "edit", "post", "--title", "My post, edited"])).code).toBe(0);
    expect(JSON.parse((await run(["links", "show", "post", "--json"])).stdout)).toMatchObject({
      title: "My post, edited",
      imageSource: "upload",
    });

    expect((await run(["links", "delete", "post", "--yes"])).code).toBe(0);
    expect(JSON.parse((await run(["links", "list", "--json"])).stdout)).toEqual([]);
    expect(JSON.parse((await run(["links", "list", "--deleted", "--json"])).stdout)).toHaveLength(1);
  });

  test("exit codes: 1 refused (bad token, validation), 2 bad usage, 3 unreachable", async () => {
    const badToken = await run(["whoami"], { LINKPREV_SERVER: url, LINKPREV_TOKEN: "lp_wrong" });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain("HTTP 401");
    const invalid = await run(
      ["links", "create", "--target", "javascript:alert(1)", "--title", "t", "--description", "d"],
      { LINKPREV_SERVER: url, LINKPREV_TOKEN: token },
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("targetUrl: Please enter a valid URL");
    expect((await run(["links", "create", "--title", "t"])).code).toBe(2);
    const unreachable = await run(["links", "list"], { LINKPREV_SERVER: "http://127.0.0.1:1", LINKPREV_TOKEN: token });
    expect(unreachable.code).toBe(3);
    expect((await run(["logout"])).stdout).toBe("Logged out");
    expect((await run(["links", "list"])).code).toBe(2);
  });

  test("admin backup taken during writes is a valid database with every link written before it", async () => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const create = (i: number) =>
      fetch(`${url}/api/links`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: `L${i}`, description: "d", targetUrl: `https://example.com/${i}` }),
      });
    const before = await Promise.all(Array.from({ length: 30 }, (_, i) => create(i).then((r) => r.json())));
    const backupFile = join(dir, "backup.db");
    const [backup] = await Promise.all([
      run(["admin", "backup", backupFile]),
      ...Array.from({ length: 20 }, (_, i) => create(100 + i)),
    ]);
    expect(backup.code).toBe(0);
    const copy = new Database(backupFile, { readonly: true });
    expect(copy.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    const ids = new Set(
      copy
        .query<{ id: number }, []>("SELECT id FROM links")
        .all()
        .map((r) => r.id),
    );
    for (const link of before) expect(ids.has(link.id)).toBe(true);
    copy.close();
    expect((await run(["admin", "backup", backupFile])).code).toBe(2);
  });
});
