// What operators do (`linkprev admin reports|links|hosts|users|audit`), each written to the audit log, and the
// abuse brakes on new accounts and on many links to one host. Both engines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { listAudit } from "../../src/safety/audit.ts";
import { blockHost, unblockHost } from "../../src/safety/host-blocks.ts";
import { resolveReport } from "../../src/safety/reports.ts";
import { setSuspended } from "../../src/safety/suspend-user.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { TestClock } from "../helpers/clock.ts";
import { eventually, isTrue } from "../helpers/eventually.ts";
import {
  apiClient,
  crawlerAgents,
  seedLink,
  seedSession,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

const PERSON = crawlerAgents.people[Object.keys(crawlerAgents.people)[0]!]!;
const valid = { title: "Card", description: "Text", targetUrl: "https://example.org/" };

let server: TestServer;
let ana: ApiClient;

const create = (client: ApiClient, targetUrl: string, customLinkSlug?: string) =>
  client.call("/api/links", { method: "POST", json: { ...valid, targetUrl, customLinkSlug } });
const statusOf = async (client: ApiClient, slug: string) =>
  (await (await client.call(`/api/links/by-slug/${slug}`)).json()) as { status: string; disabledReason: string | null };

/** Runs `linkprev admin …` against the test server's database. */
const admin = (...args: string[]) => runAdmin(server, ...args);

beforeAll(async () => {
  server = await startTestServer();
  ana = await apiClient(server, "pro", "ana");
});
afterAll(() => server.close());

describe("operators", () => {
  test("admin links disable|enable ADDRESS --reason: /go follows, the owner sees status and reason, each in the audit log", async () => {
    expect((await create(ana, "https://example.org/sale", "sale")).status).toBe(201);
    expect(
      (await fetch(`${server.url}/go/ana/sale`, { headers: { "user-agent": PERSON }, redirect: "manual" })).status,
    ).toBe(302);
    admin("links", "disable", "ana/sale", "--reason", "phishing kit reported by CERT", "--by", "ops@example");
    expect(await statusOf(ana, "sale")).toEqual(
      expect.objectContaining({ status: "disabled", disabledReason: "Operator: phishing kit reported by CERT" }),
    );
    // The owner sees it in the dashboard and the editor too.
    const cookie = `lp_session=${(await seedSession(server.sql, ana.userId)).token}`;
    for (const page of ["/admin", "/admin/link/edit/sale"]) {
      expect(await (await fetch(`${server.url}${page}`, { headers: { cookie } })).text()).toContain(
        "Disabled: Operator: phishing kit reported by CERT",
      );
    }
    // The running server's cache hears of it (PostgreSQL: NOTIFY; SQLite: the audit log it follows).
    await eventually(async () =>
      isTrue(
        (await fetch(`${server.url}/go/ana/sale`, { headers: { "user-agent": PERSON }, redirect: "manual" })).status ===
          200,
        "the warning page is served",
      ),
    );
    admin("links", "enable", "https://x.example/go/ana/sale", "--reason", "false positive", "--by", "ops@example");
    expect((await statusOf(ana, "sale")).status).toBe("active");
    await eventually(async () =>
      isTrue(
        (await fetch(`${server.url}/go/ana/sale`, { headers: { "user-agent": PERSON }, redirect: "manual" })).status ===
          302,
        "the redirect is back",
      ),
    );
    const lines = admin("audit")
      .trim()
      .split("\n")
      .filter((line) => line.includes("ana/sale"));
    expect(lines.map((line) => line.split("\t").slice(1))).toEqual([
      ["ops@example", "link.disable", "ana/sale", "phishing kit reported by CERT"],
      ["ops@example", "link.enable", "ana/sale", "false positive"],
    ]);
    const exported = admin("audit", "--json")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { action: string; at: string });
    expect(exported.some((row) => row.action === "link.disable" && !Number.isNaN(Date.parse(row.at)))).toBe(true);
  });

  test("hosts block: future targets on the host and its subdomains refused naming the operator, live links on it disabled; unblock allows again", async () => {
    expect((await create(ana, "https://cdn.bad-hosting.example/a", "onbad")).status).toBe(201);
    expect((await create(ana, "https://good-hosting.example/a", "ongood")).status).toBe(201);
    // A link from before target domains were stored (written straight to the table) is found too.
    await seedLink(server.sql, ana.userId, { linkSlug: "older", targetUrl: "https://old.bad-hosting.example/x" });
    expect(await blockHost(server.ctx.safety, "bad-hosting.example", "ops", "hosts phishing kits")).toBe(2);
    expect((await statusOf(ana, "older")).status).toBe("disabled");
    expect((await statusOf(ana, "onbad")).disabledReason).toBe("Listed by this instance's operator");
    expect((await statusOf(ana, "ongood")).status).toBe("active");
    const refused = await create(ana, "https://www.bad-hosting.example/login");
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toContain(
      "this instance's operator lists the host bad-hosting.example",
    );
    await expect(blockHost(server.ctx.safety, "co.uk", "ops", "too broad")).rejects.toThrow("public suffix");
    await unblockHost(server.ctx.safety, "bad-hosting.example", "ops", "cleaned up");
    expect((await create(ana, "https://www.bad-hosting.example/login")).status).toBe(201);
    const actions = (await listAudit(server.ctx.db)).map((row) => `${row.action} ${row.subject}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        "host.block bad-hosting.example",
        "link.disable ana/onbad",
        "host.unblock bad-hosting.example",
      ]),
    );
  });

  test("users suspend: links disabled, sign-in refused with a clear message; unsuspend enables only the links it disabled", async () => {
    const bo = await apiClient(server, "pro", "bo");
    expect((await create(bo, "https://example.org/1", "one")).status).toBe(201);
    expect((await create(bo, "https://example.org/2", "two")).status).toBe(201);
    const email = (await server.sql.get<{ email: string }>("SELECT email FROM users WHERE id = ?", bo.userId))!.email;
    admin("links", "disable", "bo/two", "--reason", "spam");
    expect(admin("users", "suspend", email, "--reason", "mass phishing")).toContain("1 link(s) disabled");
    const refused = await bo.call("/api/links");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("This account is suspended");
    await setSuspended(server.ctx.safety, email, false, "ops", "appeal accepted");
    expect((await statusOf(bo, "one")).status).toBe("active");
    expect((await statusOf(bo, "two")).disabledReason).toBe("Operator: spam");
    const actions = (await listAudit(server.ctx.db))
      .filter((row) => row.subject === email)
      .map((row) => `${row.action}: ${row.reason}`);
    expect(actions).toEqual(["user.suspend: mass phishing", "user.unsuspend: appeal accepted"]);
  });

  test("reports list|resolve: an open report is listed with its target, resolving it leaves the list and writes the audit", async () => {
    expect((await create(ana, "https://example.org/reported", "reported")).status).toBe(201);
    const sent = await fetch(`${server.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: "ana/reported", reason: "impersonation", details: "pretends to be my bank" }),
    });
    const { id } = (await sent.json()) as { id: number };
    const listed = admin("reports", "list");
    expect(listed).toContain(`${id}\t`);
    expect(listed).toContain(
      "ana/reported\timpersonation\tactive\thttps://example.org/reported\topen\tpretends to be my bank",
    );
    admin("reports", "resolve", String(id), "--reason", "checked: genuine bank page");
    expect(admin("reports", "list")).not.toContain("ana/reported");
    expect(admin("reports", "list", "--all")).toContain("resolved: checked: genuine bank page");
    await expect(resolveReport(server.ctx.safety, 999_999, "x", "ops")).rejects.toThrow("No report");
    expect(
      (await listAudit(server.ctx.db)).some((row) => row.action === "report.resolve" && row.subject === "ana/reported"),
    ).toBe(true);
  });
});

describe("abuse brakes", () => {
  let limited: TestServer;
  let clock: TestClock;
  beforeAll(async () => {
    clock = new TestClock();
    limited = await startTestServer(
      { NEW_ACCOUNT_HOURS: "24", NEW_ACCOUNT_LINKS: "2", TARGET_HOST_LINKS_PER_HOUR: "2" },
      clock,
    );
    // The instance owner (the first account) has no new-account limits (tests/integration/new-account-limits.test.ts).
    await apiClient(limited, "pro", "owner");
  });
  afterAll(() => limited.close());

  test("an account younger than NEW_ACCOUNT_HOURS creates NEW_ACCOUNT_LINKS links, then is told when to retry", async () => {
    const fresh = await apiClient(limited, "pro");
    expect((await create(fresh, "https://a.example/")).status).toBe(201);
    expect((await create(fresh, "https://b.example/")).status).toBe(201);
    const third = await create(fresh, "https://c.example/");
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toMatch(
      /New accounts can create 2 links in their first 24 hours\. Try again after \d{4}-\d\d-\d\dT/,
    );
    clock.advance(25 * 3_600_000);
    expect((await create(fresh, "https://c.example/")).status).toBe(201);
  });

  test("more than TARGET_HOST_LINKS_PER_HOUR new links to one host is refused with when to retry; other hosts are not", async () => {
    const busy = await apiClient(limited, "pro");
    await limited.sql.run(
      "UPDATE users SET created_at = ? WHERE id = ?",
      new Date(clock.now() - 30 * 86_400_000),
      busy.userId,
    );
    expect((await create(busy, "https://shop.example/1")).status).toBe(201);
    expect((await create(busy, "https://shop.example/2")).status).toBe(201);
    const third = await create(busy, "https://shop.example/3");
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toMatch(
      /You created 2 links to shop\.example in the last hour \(at most 2\)\. Try again after /,
    );
    expect((await create(busy, "https://other.example/1")).status).toBe(201);
    clock.advance(61 * 60_000);
    expect((await create(busy, "https://shop.example/3")).status).toBe(201);
  });
});

describe("CHECK_TARGET_REDIRECTS", () => {
  test("each hop of the target's redirects is checked through the safe fetcher: a clean address that redirects to a listed one is refused", async () => {
    const web = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        new URL(request.url).pathname === "/start"
          ? Response.redirect("/hop", 302)
          : new URL(request.url).pathname === "/hop"
            ? Response.redirect("/evil", 301)
            : new Response("<html></html>", { headers: { "content-type": "text/html" } }),
    });
    const base = `http://127.0.0.1:${web.port}`;
    const list = join(server.dataDir, "redirect-feed.txt");
    await Bun.write(list, `${base}/evil\n`);
    const checking = await startTestServer({
      THREAT_FEEDS: `openphish:${list}`,
      CHECK_TARGET_REDIRECTS: "true",
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
    });
    try {
      const client = await apiClient(checking, "pro");
      const refused = await create(client, `${base}/start`);
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { message: string }).message).toBe(
        `targetUrl: This target cannot be linked: OpenPhish lists this address as unsafe (the target redirects to ${base}/evil)`,
      );
      expect((await create(client, `${base}/fine`)).status).toBe(201);
    } finally {
      await checking.close();
      web.stop(true);
    }
  });
});
