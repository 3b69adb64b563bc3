// The new-account limits spare the instance owner and the accounts an operator trusts (`linkprev admin users
// trust EMAIL`), and every 429 says when to come back (Retry-After). Both engines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listAudit } from "../../src/safety/audit.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { TestClock } from "../helpers/clock.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const HOUR = 3_600_000;
// The limits count in fixed windows of the clock (a minute, an hour: src/http/rate-limit.ts). The server's clock stands
// still at half past this hour and 30 seconds, so no window ends between a test's requests and each Retry-After is
// known to the second.
const clock = new TestClock(Math.floor(Date.now() / HOUR) * HOUR + 30 * 60_000 + 30_000);
let server: TestServer;
let owner: ApiClient;
beforeAll(async () => {
  server = await startTestServer(
    {
      NEW_ACCOUNT_HOURS: "24",
      NEW_ACCOUNT_LINKS: "1",
      TARGET_HOST_LINKS_PER_HOUR: "2",
      AUTH_RATE_LIMIT: "2",
    },
    clock,
  );
  // The first account is the instance's owner: the one who set it up.
  owner = await apiClient(server, "enterprise", "owner");
});
afterAll(() => server.close());

let hosts = 0;
const create = (client: ApiClient, host = `site${++hosts}.example`) =>
  client.call("/api/links", {
    method: "POST",
    json: { title: "Card", description: "Text", targetUrl: `https://${host}/` },
  });
const emailOf = async (client: ApiClient) =>
  (await server.sql.get<{ email: string }>("SELECT email FROM users WHERE id = ?", client.userId))!.email;

/** A 429's Retry-After, checked to be whole seconds, and the moment it names. */
function retryAt(response: Response): number {
  expect(response.status).toBe(429);
  const seconds = response.headers.get("retry-after");
  expect(seconds).toMatch(/^[1-9]\d*$/);
  return clock.now() + Number(seconds) * 1000;
}

describe("new-account limits", () => {
  test("the instance owner creates past NEW_ACCOUNT_LINKS on day one", async () => {
    for (let i = 0; i < 3; i++) expect((await create(owner)).status).toBe(201);
  });

  test("a new account is stopped with Retry-After at the time its message names; trusted, it is not; untrusted, it is again", async () => {
    const ana = await apiClient(server, "enterprise");
    expect((await create(ana)).status).toBe(201);
    const refused = await create(ana);
    const at = retryAt(refused);
    const { message } = (await refused.json()) as { message: string };
    const named = Date.parse(/Try again after (\S+)\.$/.exec(message)![1]!);
    // The message names the second (rounded down), Retry-After whole seconds (rounded up).
    expect(at - named).toBeGreaterThanOrEqual(0);
    expect(at - named).toBeLessThanOrEqual(1_000);

    const email = await emailOf(ana);
    expect(runAdmin(server, "users", "trust", email, "--reason", "our designer", "--by", "ops")).toContain(
      `${email}: trusted`,
    );
    expect((await create(ana)).status).toBe(201);
    expect((await create(ana)).status).toBe(201);
    runAdmin(server, "users", "untrust", email);
    expect((await create(ana)).status).toBe(429);
    const audit = (await listAudit(server.ctx.db))
      .filter((row) => row.subject === email)
      .map((row) => [row.actor, row.action, row.reason]);
    expect(audit).toEqual([
      ["ops", "user.trust", "our designer"],
      [expect.any(String), "user.untrust", ""],
    ]);
    expect(() => runAdmin(server, "users", "trust", "nobody@example.com")).toThrow(
      "No account with the e-mail address nobody@example.com",
    );
  });
});

describe("every 429 carries Retry-After", () => {
  test("links to one host an hour: when the oldest of them is an hour old", async () => {
    for (let i = 0; i < 2; i++) expect((await create(owner, "busy.example")).status).toBe(201);
    expect(retryAt(await create(owner, "busy.example"))).toBe(clock.now() + HOUR);
  });

  test("sign-in and token requests (AUTH_RATE_LIMIT a minute), reports (an hour), a short link's password (a minute)", async () => {
    const token = () => owner.call("/api/tokens", { method: "POST", json: { name: "laptop" } });
    for (let i = 0; i < 2; i++) expect((await token()).status).toBe(201);
    // The minute's window ends 30 seconds on.
    expect(retryAt(await token())).toBe(clock.now() + 30_000);

    const slug = (
      (await (
        await owner.call("/api/links", {
          method: "POST",
          json: { title: "Locked", description: "d", targetUrl: "https://locked.example/", password: "right" },
        })
      ).json()) as { linkSlug: string }
    ).linkSlug;
    const report = () =>
      fetch(`${server.url}/api/reports`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: `owner/${slug}`, reason: "spam" }),
      });
    for (let i = 0; i < 5; i++) expect((await report()).status).toBe(201);
    // The hour's window ends 29 minutes 30 seconds on.
    expect(retryAt(await report())).toBe(clock.now() + 29 * 60_000 + 30_000);

    const person = crawlerAgents.people[Object.keys(crawlerAgents.people)[0]!]!;
    const guess = () =>
      fetch(`${server.url}/go/owner/${slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "user-agent": person },
        body: new URLSearchParams({ password: "wrong" }),
      });
    let answer = await guess();
    while (answer.status === 401) answer = await guess();
    // A client's guesses are counted in the minute's window too.
    expect(retryAt(answer)).toBe(clock.now() + 30_000);
  });
});
