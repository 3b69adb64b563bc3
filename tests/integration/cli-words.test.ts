// What the CLI says in words: a refused token is named as such (not "not signed in"), deleted links say so and when,
// counts agree with their number ("1 QR scan"), and platforms are written as their own names ("LinkedIn").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cliUser, runCli } from "../helpers/cli.ts";
import { crawlerAgents, seedApiToken, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let client: ApiClient;
let env: Record<string, string>;

const run = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra } });

beforeAll(async () => {
  server = await startTestServer();
  ({ client, env } = await cliUser(server, "worded"));
});
afterAll(() => server.close());

const create = async (slug: string) => {
  const response = await client.call("/api/links", {
    method: "POST",
    json: { title: slug, description: "d", targetUrl: "https://example.com/", customLinkSlug: slug },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number };
};

test("a revoked token: the CLI says the server refused the token and how to make a new one, not that nobody is signed in", async () => {
  const { id, token } = await seedApiToken(server.sql, client.userId, "soon revoked");
  expect((await client.call(`/api/tokens/${id}`, { method: "DELETE" })).status).toBeLessThan(300);
  const { code, stderr } = await run(["links", "list"], { LINKPREV_TOKEN: token });
  expect(code).toBe(1);
  expect(stderr).toContain(`${server.url} refused the API token (HTTP 401): it was revoked`);
  expect(stderr).toContain("linkprev admin token create");
  expect(stderr).toContain("LINKPREV_TOKEN");
  expect(stderr.toLowerCase()).not.toContain("not signed in");
});

test("links list --deleted: each row says deleted, and on which day", async () => {
  const { id } = await create("gone-soon");
  expect((await client.call(`/api/links/${id}`, { method: "DELETE" })).status).toBeLessThan(300);
  const { code, stdout } = await run(["links", "list", "--deleted"]);
  expect(code).toBe(0);
  const [header, row] = stdout.trimEnd().split("\n");
  expect(header).toMatch(/STATUS +DELETED +CREATED/);
  const today = new Date().toISOString().slice(0, 10);
  expect(row).toMatch(new RegExp(`^gone-soon .* deleted +${today} +${today}$`));
});

test('stats say "1 QR scan" and "1 daily unique visitor"; platforms are written as their names', async () => {
  await create("counted");
  const go = (agent: string, query = "") =>
    fetch(`${server.url}/go/worded/counted${query}`, { headers: { "user-agent": agent }, redirect: "manual" }).then(
      (r) => r.arrayBuffer(),
    );
  await go(crawlerAgents.people["firefox-linux"]!, "?qr=1");
  await go(crawlerAgents.crawlers.linkedin![0]!);
  await go(crawlerAgents.crawlers.whatsapp![0]!);
  await server.flushViews();

  const stats = (await run(["links", "stats", "counted", "--days", "7"])).stdout;
  expect(stats).toContain(": 1 human, 2 bot, 1 daily unique visitor (summed), 1 QR scan in all");
  expect(stats).toMatch(/Platforms: (LinkedIn 1 · WhatsApp 1|WhatsApp 1 · LinkedIn 1)/);
  const chart = (await run(["links", "stats", "counted", "--days", "7", "--chart"])).stdout;
  expect(chart).toContain("LinkedIn");
  const platforms = (await run(["links", "platforms", "counted"])).stdout;
  for (const name of ["LinkedIn", "WhatsApp", "Facebook", "iMessage"])
    expect(platforms).toMatch(new RegExp(`^${name} `, "m"));
  expect(platforms).not.toMatch(/^(linkedin|whatsapp|facebook) /m);
});
