// `linkprev links create / edit / show` with the rule and UTM options (cli/client/rule-options.ts), run as the real
// CLI process against a real server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliEnv, runCli } from "../helpers/cli.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dir: string;
let client: ApiClient;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT: "100000" });
  dir = mkdtempSync(join(tmpdir(), "linkprev-rules-cli-"));
  client = await apiClient(server, "pro", "cliuser");
  token = (
    (await (await client.call("/api/tokens", { method: "POST", json: { name: "cli" } })).json()) as { token: string }
  ).token;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => runCli(args, { env: cliEnv(server, token, dir) });

test("create with expiry, a cap, a password, device and country rules and UTM tags; show prints them; edit changes and clears them", async () => {
  const created = await run(
    "links",
    "create",
    "--target",
    "https://example.com/app?ref=home",
    "--title",
    "App",
    "--description",
    "Get the app",
    "--slug",
    "app",
    "--expires-at",
    "2030-01-01T00:00:00Z",
    "--max-clicks",
    "100",
    "--password",
    "s3cret",
    "--rule",
    "device:ios=https://apps.apple.com/app/id1",
    "--rule",
    "country:de=https://example.com/de",
    "--utm-preset",
    "newsletter",
    "--utm-campaign",
    "spring launch",
    "--json",
  );
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  const link = JSON.parse(created.stdout);
  expect(link).toMatchObject({
    targetUrl: "https://example.com/app?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=spring+launch",
    expiresAt: "2030-01-01T00:00:00.000Z",
    maxClicks: 100,
    hasPassword: true,
    rules: [
      { when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" },
      { when: { country: "DE" }, targetUrl: "https://example.com/de" },
    ],
  });

  const shown = await run("links", "show", "app");
  expect(shown.stdout).toContain("Max clicks   100");
  expect(shown.stdout).toContain("Password     yes");
  expect(shown.stdout).toContain("Rule         device ios → https://apps.apple.com/app/id1");
  expect(shown.stdout).toContain("Health       unchecked");

  const edited = await run(
    "links",
    "edit",
    "app",
    "--max-clicks",
    "",
    "--password",
    "",
    "--clear-rules",
    "--utm-campaign",
    "summer",
    "--json",
  );
  expect(edited.code).toBe(0);
  expect(JSON.parse(edited.stdout)).toMatchObject({
    targetUrl: "https://example.com/app?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=summer",
    expiresAt: "2030-01-01T00:00:00.000Z",
    maxClicks: null,
    hasPassword: false,
    rules: [],
  });

  const bad = await run(
    "links",
    "create",
    "--target",
    "https://example.com",
    "--title",
    "T",
    "--description",
    "D",
    "--rule",
    "os:ios=https://x.example",
  );
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--rule must look like device:ios=https://… or country:DE=https://…");
  const refused = await run(
    "links",
    "create",
    "--target",
    "https://example.com",
    "--title",
    "T",
    "--description",
    "D",
    "--max-clicks",
    "0",
  );
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("maxClicks: must be at least 1");
}, 60_000);

test("a broken link says so in links list and links show", async () => {
  const response = await client.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://example.com/gone", title: "Gone", description: "D", customLinkSlug: "gone" },
  });
  const { id } = (await response.json()) as { id: number };
  await server.sql.run(
    "INSERT INTO link_rules (link_id, health_status, health_http_status, health_failures) VALUES (?, 'broken', 404, 2)",
    id,
  );
  const list = await run("links", "list");
  expect(list.stderr).toContain("gone: target BROKEN: HTTP 404");
  expect((await run("links", "show", "gone")).stdout).toContain("Health       BROKEN: HTTP 404");
}, 30_000);

test("a broken rule target is named in links list and links show", async () => {
  const rules = [{ when: { device: "android" }, targetUrl: "https://play.example/app" }];
  const response = await client.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://example.com/fine", title: "App", description: "D", customLinkSlug: "store-app", rules },
  });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  await server.sql.run(
    "UPDATE link_rules SET health_status = 'broken', health_http_status = 410, health_failures = 2, health_failed_url = 'https://play.example/app' WHERE link_id = ?",
    id,
  );
  expect((await run("links", "list")).stderr).toContain(
    "store-app: target BROKEN: HTTP 410 at rule device android → https://play.example/app",
  );
  expect((await run("links", "show", "store-app")).stdout).toContain(
    "Health       BROKEN: HTTP 410 at rule device android → https://play.example/app",
  );
}, 30_000);

test("a used-up or expired link says so in links list and links show", async () => {
  const person = {
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  };
  const card = { targetUrl: "https://example.com/offer", title: "Offer", description: "D" };
  expect(
    (await client.call("/api/links", { method: "POST", json: { ...card, customLinkSlug: "capped", maxClicks: 3 } }))
      .status,
  ).toBe(201);
  expect(
    (
      await client.call("/api/links", {
        method: "POST",
        json: { ...card, customLinkSlug: "over", expiresAt: "2020-01-01T00:00:00Z" },
      })
    ).status,
  ).toBe(201);
  expect((await run("links", "show", "capped")).stdout).toContain("Status       active");
  for (let i = 0; i < 3; i++)
    expect((await fetch(`${server.url}/go/cliuser/capped`, { headers: person, redirect: "manual" })).status).toBe(302);

  const list = (await run("links", "list")).stdout.split("\n");
  expect(list.find((line) => line.startsWith("capped "))).toContain("3 of 3 visits used");
  expect(list.find((line) => line.startsWith("over "))).toContain("Expired");
  const capped = (await run("links", "show", "capped")).stdout;
  expect(capped).toContain("Status       3 of 3 visits used");
  expect(capped).toContain("Max clicks   3 (3 of 3 visits used)");
  expect((await run("links", "show", "over")).stdout).toContain("Status       Expired");
}, 60_000);
