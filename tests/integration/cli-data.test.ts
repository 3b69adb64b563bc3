// `linkprev links import / export --csv` and `linkprev account delete`, run as the real CLI process against a
// real server: what a user at a terminal (or a script, not a TTY) sees, and what ends up stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng } from "../helpers/images.ts";
import {
  apiClient,
  BILLING_ON,
  seedApiToken,
  seedSubscription,
  seedUser,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ ...BILLING_ON, AUTH_RATE_LIMIT: "100000" });
  dir = mkdtempSync(join(tmpdir(), "linkprev-import-"));
  writeFileSync(join(dir, "card.png"), makePng(1200, 630));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function tokenOf(client: ApiClient): Promise<string> {
  const response = await client.call("/api/tokens", { method: "POST", json: { name: "cli" } });
  return ((await response.json()) as { token: string }).token;
}

function spawnCli(args: string[], token: string) {
  return Bun.spawn([process.execPath, cli, ...args], {
    env: { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token, XDG_CONFIG_HOME: dir },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function run(args: string[], token: string) {
  const child = spawnCli(args, token);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

function csvFile(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const liveLinks = async (client: ApiClient) =>
  (await (await client.call("/api/links")).json()) as Array<{
    linkSlug: string;
    targetUrl: string;
    title: string;
    imageUrl: string | null;
  }>;

describe("linkprev links import", () => {
  test("checks every row first, reports bad ones by line with the API's message, creates the rest; a dry run writes nothing; a re-run creates nothing twice", async () => {
    const client = await apiClient(server, "pro");
    const token = await tokenOf(client);
    const file = csvFile("mixed.csv", [
      "target,title,description,slug,image",
      "https://example.com/one,First,The first one,first,card.png",
      `https://example.com/two,${"T".repeat(61)},Too long a title,,`,
      "javascript:alert(1),Bad,Not a web address,,",
      "https://example.com/three,Third,No slug here,,",
      '"https://example.com/four","Fourth, quoted","A ""quoted"" description",four,',
      "https://example.com/five,Fifth,Missing picture,,missing.png",
      "https://example.com/six,Sixth,Bad slug,no spaces,",
    ]);

    const dry = await run(["links", "import", file, "--dry-run"], token);
    expect(dry.stdout).toContain("Dry run: 3 to create, 0 already there, 4 invalid");
    expect(await liveLinks(client)).toEqual([]);

    const first = await run(["links", "import", file], token);
    const problems = [
      "line 3: title: Title must be 60 characters or less",
      "line 4: targetUrl: Please enter a valid URL",
      "line 7: image: Cannot read image file missing.png",
      "line 8: customLinkSlug: Only letters, numbers, underscores and hyphens are allowed",
    ];
    for (const problem of problems) expect(first.stderr).toContain(problem);
    expect(first.stdout).toContain(`line 2: created ${server.url}/go/${client.userSlug}/first`);
    expect(first.stdout).toContain("Created 3, skipped 0 already there, 4 not created");
    expect(first.code).toBe(1);
    const created = await liveLinks(client);
    expect(
      created.map((l) => [l.linkSlug === "first" || l.linkSlug === "four" ? l.linkSlug : "random", l.title]).sort(),
    ).toEqual([
      ["first", "First"],
      ["four", "Fourth, quoted"],
      ["random", "Third"],
    ]);
    expect(created.find((l) => l.linkSlug === "first")!.imageUrl).toStartWith("/uploads/");

    const again = await run(["links", "import", file], token);
    expect(again.stdout).toContain("Created 0, skipped 3 already there, 4 not created");
    expect(await liveLinks(client)).toHaveLength(3);
  });

  test("an image outside the CSV's folder (absolute, ../, a symlink leading out) is refused by line, unless --images-from allows its folder", async () => {
    const client = await apiClient(server, "pro");
    const token = await tokenOf(client);
    const outer = mkdtempSync(join(dir, "outer-"));
    const folder = join(outer, "csv");
    mkdirSync(folder);
    writeFileSync(join(outer, "secret.png"), makePng(1200, 630));
    writeFileSync(join(folder, "card.png"), makePng(1200, 630));
    symlinkSync(join(outer, "secret.png"), join(folder, "link.png"));
    const file = join(folder, "links.csv");
    writeFileSync(
      file,
      [
        "target,title,description,slug,image",
        "https://example.com/in,Inside,Next to the CSV,inside,card.png",
        "https://example.com/up,Up,Parent folder,up,../secret.png",
        `https://example.com/abs,Absolute,Absolute path,abs,${join(outer, "secret.png")}`,
        "https://example.com/sym,Symlink,Leads out,sym,link.png",
      ].join("\n") + "\n",
    );
    const refusals = [
      "line 3: image: ../secret.png is outside the CSV's folder (use --images-from DIR to allow another folder)",
      `line 4: image: ${join(outer, "secret.png")} is outside the CSV's folder`,
      "line 5: image: link.png is outside the CSV's folder",
    ];

    const dry = await run(["links", "import", file, "--dry-run"], token);
    for (const refusal of refusals) expect(dry.stderr).toContain(refusal);
    expect(dry.stdout).toContain("Dry run: 1 to create, 0 already there, 3 invalid");
    expect(dry.code).toBe(1);

    const real = await run(["links", "import", file], token);
    for (const refusal of refusals) expect(real.stderr).toContain(refusal);
    expect(real.stdout).toContain("Created 1, skipped 0 already there, 3 not created");
    expect((await liveLinks(client)).map((l) => l.linkSlug)).toEqual(["inside"]);

    const allowed = await run(["links", "import", file, "--images-from", outer], token);
    expect(allowed.stderr).toBe("");
    expect(allowed.stdout).toContain("Created 3, skipped 1 already there, 0 not created");
    const links = await liveLinks(client);
    expect(links.map((l) => l.linkSlug).sort()).toEqual(["abs", "inside", "sym", "up"]);
    expect(links.every((l) => l.imageUrl?.startsWith("/uploads/"))).toBe(true);
  });

  test("quota answers are reported on the row, then the import stops", async () => {
    const client = await apiClient(server, "basic");
    const token = await tokenOf(client);
    const rows = Array.from({ length: 22 }, (_, i) => `https://example.com/q${i},Row ${i},Quota test`);
    const result = await run(["links", "import", csvFile("quota.csv", ["target,title,description", ...rows])], token);
    expect(result.stderr).toContain("line 22: You have used all 20 links of the Basic plan");
    expect(result.stdout).toContain(
      "Stopped at line 22: refused by your plan. Created 20, skipped 0 already there, 1 not created; run the same command again to continue",
    );
    expect(result.code).toBe(1);
    expect(await liveLinks(client)).toHaveLength(20);
  });

  test("Ctrl-C stops after the current row and says how far it got; running it again finishes", async () => {
    const client = await apiClient(server, "pro");
    const token = await tokenOf(client);
    const rows = Array.from({ length: 100 }, (_, i) => `https://example.com/c${i},Row ${i},Interrupted`);
    const file = csvFile("interrupt.csv", ["target,title,description", ...rows]);
    const child = spawnCli(["links", "import", file], token);
    const reader = child.stdout.getReader();
    let stdout = "";
    while (!stdout.includes("created")) stdout += new TextDecoder().decode((await reader.read()).value);
    child.kill("SIGINT");
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      stdout += new TextDecoder().decode(chunk.value);
    expect(await child.exited).toBe(130);
    const stopped = /Stopped by Ctrl-C after (\d+) of 100 rows\. Created (\d+),/.exec(stdout);
    expect(stopped).not.toBeNull();
    expect(Number(stopped![2])).toBe(Number(stopped![1]));
    expect(Number(stopped![1])).toBeLessThan(100);
    expect(await liveLinks(client)).toHaveLength(Number(stopped![1]));
    const rest = await run(["links", "import", file], token);
    expect(rest.stdout).toContain(`Created ${100 - Number(stopped![1])}, skipped ${stopped![1]} already there`);
    expect(await liveLinks(client)).toHaveLength(100);
  });
});

test("linkprev links export --csv prints the CSV route's document", async () => {
  const client = await apiClient(server, "pro");
  await client.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://example.com/x", title: "=1+1", description: "d", customLinkSlug: "exported" },
  });
  const result = await run(["links", "export", "--csv"], await tokenOf(client));
  expect(result.code).toBe(0);
  expect(result.stdout).toStartWith('"slug","short URL"');
  expect(result.stdout).toContain(
    `"exported","${server.url}/go/${client.userSlug}/exported","https://example.com/x","'=1+1","d"`,
  );
});

test("linkprev account delete --confirm: a wrong e-mail changes nothing, the right one deletes", async () => {
  // No subscription: this server's Stripe is not reachable (the account tests cancel one in the fake Stripe).
  const client = await apiClient(server, null);
  const token = await tokenOf(client);
  const { email } = (await (await client.call("/api/auth/user")).json()) as { email: string };
  const wrong = await run(["account", "delete", "--confirm", "not-me@example.com"], token);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain("Type the e-mail address of this account to confirm the deletion (HTTP 400)");
  expect(await server.sql.get("SELECT id FROM users WHERE id = ?", client.userId)).not.toBeNull();
  const right = await run(["account", "delete", "--confirm", email], token);
  expect(right.code).toBe(0);
  expect(right.stdout).toContain("Your account is deleted");
  expect(await server.sql.get("SELECT id FROM users WHERE id = ?", client.userId)).toBeNull();
});

test("Stripe unreachable: the deletion stops with a 502 that says what to do, the account stays signed out and off /go", async () => {
  const client = await apiClient(server, "pro");
  const token = await tokenOf(client);
  const { email } = (await (await client.call("/api/auth/user")).json()) as { email: string };
  await client.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://example.com/s", title: "S", description: "d", customLinkSlug: "stopped" },
  });
  const result = await run(["account", "delete", "--confirm", email], token);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    "Stripe could not cancel the subscription just now. Send the deletion again in a few minutes to finish it. (HTTP 502)",
  );
  expect(
    await server.sql.get("SELECT id FROM users WHERE id = ? AND deleting_since IS NOT NULL", client.userId),
  ).toEqual({ id: client.userId });
  expect((await client.call("/api/links")).status).toBe(401);
  // Its user slug is already retired: the address answers 410 Gone.
  expect((await fetch(`${server.url}/go/${client.userSlug}/stopped`, { redirect: "manual" })).status).toBe(410);
});

describe("linkprev account accept-terms", () => {
  test("a new user's first change is refused with the command to run; after accept-terms --yes it goes through", async () => {
    const user = await seedUser(server.sql, { consent: false });
    await seedSubscription(server.sql, user.id, "pro");
    const { token } = await seedApiToken(server.sql, user.id, "laptop");
    const create = [
      "links",
      "create",
      "--target",
      "https://example.com/terms",
      "--title",
      "Terms",
      "--description",
      "After accepting",
    ];
    const refused = await run(create, token);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Accept the terms first");
    expect(refused.stderr).toContain("From the CLI: linkprev account accept-terms --yes");

    const withoutYes = await run(["account", "accept-terms"], token);
    expect(withoutYes.code).toBe(2);
    const accepted = await run(["account", "accept-terms", "--yes"], token);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(
      `Accepted the terms (${server.url}/terms) and the privacy policy (${server.url}/privacy).`,
    );
    const created = await run(create, token);
    // stderr carries the card's lint warnings only (no image here), no refusal.
    expect(created.stderr).not.toMatch(/linkprev:|Accept the terms/);
    expect(created.code).toBe(0);
  });
});
