// Custom domains no one can squat or shadow, on SQLite and PostgreSQL (LINKPREV_TEST_DB=postgres): the instance's
// own names refused, an unverified claim shadowing nothing and blocking no one (it expires; a proof displaces it),
// Caddy's ask answering only the stored name, a suspension from the command line reaching the host map, custom
// domains refused as link targets (loops), and checks limited per domain.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { recheckDomains } from "../../src/domains/recheck-job.ts";
import { TestClock } from "../helpers/clock.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
const clock = new TestClock();
const CNAME_TARGET = "edge.cdn-lp.test";
const person = crawlerAgents.people["chrome-windows"]!;

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer(
    {
      PUBLIC_URL: "https://lp.example",
      ALIAS_HOSTS: "alias.lp.test, old-lp.test:8080",
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      TLS_ASK_PORT: "0",
    },
    clock,
  );
});
afterAll(async () => {
  await server.close();
  dns.close();
});

type DomainJson = {
  id: number;
  hostname: string;
  status: string;
  reason: string | null;
  verification: { txtName: string; txtValue: string };
};

const ask = (name: string) => fetch(`${server.askUrl}/tls/ask?domain=${encodeURIComponent(name)}`);
const onHost = (host: string, path: string) =>
  fetch(`${server.url}${path}`, { redirect: "manual", headers: { host, "user-agent": person } });
const addCall = (owner: ApiClient, hostname: string) =>
  owner.call("/api/domains", { method: "POST", json: { hostname } });
async function add(owner: ApiClient, hostname: string): Promise<DomainJson> {
  const response = await addCall(owner, hostname);
  expect(response.status).toBe(201);
  return (await response.json()) as DomainJson;
}
const verify = async (owner: ApiClient, id: number) =>
  (await (await owner.call(`/api/domains/${id}/verify`, { method: "POST" })).json()) as DomainJson;
function publish(domain: DomainJson) {
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(domain.hostname, { cname: CNAME_TARGET });
}
async function verifiedDomain(owner: ApiClient, hostname: string): Promise<DomainJson> {
  const domain = await add(owner, hostname);
  publish(domain);
  expect((await verify(owner, domain.id)).status).toBe("verified");
  await eventually(async () => expect((await ask(hostname)).status).toBe(200));
  return domain;
}

test("the instance's own names are refused: ALIAS_HOSTS, the CNAME target, and names under them", async () => {
  const owner = await apiClient(server, null);
  for (const hostname of [
    "alias.lp.test",
    "go.alias.lp.test",
    "old-lp.test",
    "x.old-lp.test",
    CNAME_TARGET,
    `shop.${CNAME_TARGET}`,
    "EDGE.cdn-lp.test.",
  ]) {
    const response = await addCall(owner, hostname);
    expect(response.status, hostname).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/own host/);
  }
});

test("an unverified domain shadows nothing: its host is answered by the app, as any unknown host", async () => {
  const owner = await apiClient(server, null);
  await owner.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://acme.test/spring", title: "Spring", description: "Sale", customLinkSlug: "spring" },
  });
  await add(await apiClient(server, null), "shadow.squat.test");
  expect((await onHost("shadow.squat.test", `/go/${owner.userSlug}/spring`)).headers.get("location")).toBe(
    "https://acme.test/spring",
  );
  expect((await onHost("shadow.squat.test", "/healthz")).status).toBe(200);
  expect((await ask("shadow.squat.test")).status).toBe(403);
});

describe("claims", () => {
  test("another account's pending claim blocks no one; the owner's proof displaces it, and then the name is theirs", async () => {
    const mallory = await apiClient(server, null);
    const brand = await apiClient(server, null);
    const squat = await add(mallory, "go.brand-squat.test");
    const real = await add(brand, "go.brand-squat.test");
    expect(real.verification.txtValue).not.toBe(squat.verification.txtValue);
    expect((await addCall(brand, "go.brand-squat.test")).status).toBe(409);
    publish(real);
    expect((await verify(brand, real.id)).status).toBe("verified");
    expect((await mallory.call(`/api/domains/${squat.id}`)).status).toBe(404);
    const again = await addCall(mallory, "go.brand-squat.test");
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe("This domain is verified for another account");
  });

  test("a pending claim is let go after 7 days; its links go back to the service address", async () => {
    const owner = await apiClient(server, null);
    const domain = await add(owner, "late.expiry-squat.test");
    const link = (await (
      await owner.call("/api/links", {
        method: "POST",
        json: { targetUrl: "https://acme.test/late", title: "Late", description: "Late", domain: domain.hostname },
      })
    ).json()) as { linkSlug: string };
    clock.advance(6 * 86_400_000);
    await recheckDomains(server.ctx.domains);
    expect((await owner.call(`/api/domains/${domain.id}`)).status).toBe(200);
    // The row was stamped by the database's clock, a little after the test clock started.
    clock.advance(86_400_000 + 60_000);
    await recheckDomains(server.ctx.domains);
    expect((await owner.call(`/api/domains/${domain.id}`)).status).toBe(404);
    const after = (await (await owner.call(`/api/links/by-slug/${link.linkSlug}`)).json()) as {
      domain: string | null;
      shortUrl: string;
    };
    expect(after).toMatchObject({ domain: null, shortUrl: `https://lp.example/go/${owner.userSlug}/${link.linkSlug}` });
  });
});

test("the TLS ask answers 200 for the stored name only, byte for byte", async () => {
  const owner = await apiClient(server, null);
  await verifiedDomain(owner, "exact.ask-squat.test");
  for (const name of [
    "EXACT.ask-squat.test",
    "exact.ask-squat.test.",
    "exact.ask-squat.test:0",
    "exact.ask-squat.test:443",
    "exact.ask-squat.test/x",
    "ｅxact.ask-squat.test",
    "ex\u00ADact.ask-squat.test",
    " exact.ask-squat.test",
  ]) {
    expect((await ask(name)).status, JSON.stringify(name)).toBe(403);
  }
  expect((await ask("exact.ask-squat.test")).status).toBe(200);
});

test("a suspension from the command line (another process) stops the domain within a second, and unsuspending brings it back", async () => {
  const owner = await apiClient(server, null);
  const domain = await verifiedDomain(owner, "cli.suspend-squat.test");
  await owner.call(`/api/domains/${domain.id}`, { method: "PATCH", json: { rootUrl: "https://acme.test/home" } });
  const root = async () => (await onHost("cli.suspend-squat.test", "/")).headers.get("location");
  await eventually(async () => expect(await root()).toBe("https://acme.test/home"));
  await server.sql.run("UPDATE users SET email = ? WHERE id = ?", `suspend-${owner.userId}@example.com`, owner.userId);
  const cli = (command: "suspend" | "unsuspend") =>
    Bun.spawnSync(
      [
        process.execPath,
        join(import.meta.dir, "../../cli/linkprev.ts"),
        "admin",
        "users",
        command,
        `suspend-${owner.userId}@example.com`,
        "--reason",
        "test",
        "--data",
        server.dataDir,
      ],
      {
        env: {
          ...process.env,
          ...(server.ctx.config.postgres ? { DATABASE_URL: server.ctx.config.postgres.url } : {}),
        },
      },
    );
  expect(cli("suspend").exitCode).toBe(0);
  await eventually(async () => expect((await ask("cli.suspend-squat.test")).status).toBe(403), {
    timeoutMs: 1000,
    what: "the suspended account's domain is no longer allowed",
  });
  expect(await root()).toBeNull();
  expect(cli("unsuspend").exitCode).toBe(0);
  await eventually(async () => expect((await ask("cli.suspend-squat.test")).status).toBe(200), {
    timeoutMs: 1000,
    what: "the unsuspended account's domain is allowed again",
  });
});

test("a served custom domain of this instance is a loop target, whoever owns it", async () => {
  const owner = await apiClient(server, null);
  await verifiedDomain(owner, "loop.loop-squat.test");
  const other = await apiClient(server, null);
  for (const targetUrl of ["https://loop.loop-squat.test/summer", "http://LOOP.loop-squat.test./x"]) {
    const response = await other.call("/api/links", {
      method: "POST",
      json: { targetUrl, title: "Loop", description: "Loop" },
    });
    expect(response.status, targetUrl).toBe(400);
  }
  const rule = await other.call("/api/links", {
    method: "POST",
    json: {
      targetUrl: "https://acme.test/",
      title: "Rule",
      description: "Rule",
      expiredUrl: "https://loop.loop-squat.test/x",
    },
  });
  expect(rule.status).toBe(400);
});

test("checks are limited per domain: the sixth in a minute is refused, another domain is still checked", async () => {
  const owner = await apiClient(server, null);
  const busy = await add(owner, "busy.limit-squat.test");
  const calm = await add(owner, "calm.limit-squat.test");
  const statuses: number[] = [];
  for (let n = 0; n < 6; n++)
    statuses.push((await owner.call(`/api/domains/${busy.id}/verify`, { method: "POST" })).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  expect((await owner.call(`/api/domains/${calm.id}/verify`, { method: "POST" })).status).toBe(200);
  clock.advance(60_000);
  expect((await owner.call(`/api/domains/${busy.id}/verify`, { method: "POST" })).status).toBe(200);
});
