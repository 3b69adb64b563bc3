// Two LinkPrev nodes on one PostgreSQL: a custom domain verified on A is served by B within a second (its host map
// reloads on the change announced through NOTIFY, like links), and an account suspended from the command line stops
// being served by both within a second, and served again within a second once unsuspended. Skipped, saying so, only without PostgreSQL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresInstalled, usePgNodes } from "../helpers/cluster.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import { apiCall, seedPgUserWithToken, type Node } from "../helpers/nodes.ts";
import { crawlerAgents } from "../helpers/server.ts";

const available = postgresInstalled("the two-node custom domain test");

const PERSON = crawlerAgents.people["firefox-linux"]!;
let dns: TestDnsServer;

describe.skipIf(!available)("custom domains on two nodes", () => {
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns?.close());
  const pg = usePgNodes([1, 2], () => ({ DNS_SERVERS: dns.address, DOMAIN_CNAME_TARGET: "edge.links.test" }));

  test("a domain verified on A is served by B within a second; its account suspended from the command line, by neither", async () => {
    const { db, databaseUrl, nodes } = pg();
    const [a, b] = nodes;
    const { token } = await seedPgUserWithToken(db, "ana");
    const added = await apiCall(a.url, token, "/api/domains", {
      method: "POST",
      json: { hostname: "go.ana-brand.test" },
    });
    expect(added.status).toBe(201);
    const domain = (await added.json()) as { id: number; verification: { txtName: string; txtValue: string } };
    const link = await apiCall(a.url, token, "/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://ana.test/summer",
        title: "Summer",
        description: "Sale",
        customLinkSlug: "summer",
        domain: "go.ana-brand.test",
      },
    });
    expect(link.status).toBe(201);
    const onB = () =>
      fetch(`${b.url}/summer`, { redirect: "manual", headers: { host: "go.ana-brand.test", "user-agent": PERSON } });
    // Pending: B serves nothing on that host.
    expect((await onB()).status).toBe(404);

    dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
    dns.zone.set("go.ana-brand.test", { cname: "edge.links.test" });
    const verified = await apiCall(a.url, token, `/api/domains/${domain.id}/verify`, { method: "POST" });
    expect(((await verified.json()) as { status: string }).status).toBe("verified");
    await eventually(async () => expect((await onB()).headers.get("location")).toBe("https://ana.test/summer"), {
      timeoutMs: 1000,
      what: "B serves the verified domain",
    });

    // An operator suspends the account from the command line (a third process): neither node serves the domain.
    const admin = (command: string) =>
      Bun.spawnSync(
        [
          process.execPath,
          join(import.meta.dir, "../../cli/linkprev.ts"),
          "admin",
          "users",
          command,
          "ana@example.com",
          "--reason",
          "phishing",
          "--data",
          mkdtempSync(join(tmpdir(), "lp-admin-")),
        ],
        {
          env: { ...process.env, DATABASE_URL: databaseUrl },
        },
      );
    const onNode = (node: Node) =>
      fetch(`${node.url}/summer`, { redirect: "manual", headers: { host: "go.ana-brand.test", "user-agent": PERSON } });
    expect(admin("suspend").stderr.toString()).toBe("");
    for (const node of [a, b]) {
      await eventually(async () => expect((await onNode(node)).headers.get("location")).toBeNull(), {
        timeoutMs: 1000,
        what: "the suspended account's domain is no longer served",
      });
    }
    expect(admin("unsuspend").stderr.toString()).toBe("");
    for (const node of [a, b]) {
      await eventually(
        async () => expect((await onNode(node)).headers.get("location")).toBe("https://ana.test/summer"),
        { timeoutMs: 1000, what: "the unsuspended account's domain is served again" },
      );
    }
  });
});
