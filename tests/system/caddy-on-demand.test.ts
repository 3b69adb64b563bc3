// Real Caddy (Debian's package, installed by scripts/ensure-caddy.mjs) in front of a real server, with on-demand TLS
// from its internal CA and LinkPrev's ask check: a verified custom domain gets a certificate and its crawler page
// over HTTPS; an unknown or pending one fails the TLS handshake. Connections go to 127.0.0.1 with the name as SNI
// (curl --resolve), so no DNS is involved but the loopback DNS server verification asks.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, freePort, startTestServer, type TestServer } from "../helpers/server.ts";

const CADDY = "/usr/bin/caddy";
const present = existsSync(CADDY);
if (!present)
  console.warn(`skipped: ${CADDY} is missing (run node scripts/ensure-caddy.mjs as root, or apt-get install caddy)`);

let server: TestServer;
let dns: TestDnsServer;
let caddy: ReturnType<typeof Bun.spawn> | null = null;
let dir = "";
let httpsPort = 0;

/** Async: the server under test answers Caddy's ask calls on this same thread meanwhile. */
async function curl(host: string, path: string, userAgent: string) {
  const result = Bun.spawn(
    [
      "curl",
      "-sS",
      "-o",
      "-",
      "-w",
      "\n%{http_code}",
      "--max-time",
      "20",
      "--cacert",
      join(dir, "data/caddy/pki/authorities/local/root.crt"),
      "--resolve",
      `${host}:${httpsPort}:127.0.0.1`,
      "-A",
      userAgent,
      `https://${host}:${httpsPort}${path}`,
    ],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" },
  );
  const [out, error, exit] = await Promise.all([
    new Response(result.stdout).text(),
    new Response(result.stderr).text(),
    result.exited,
  ]);
  const cut = out.lastIndexOf("\n");
  return { exit, status: Number(out.slice(cut + 1)), body: out.slice(0, cut), error };
}

beforeAll(async () => {
  if (!present) return;
  dns = await startDnsServer();
  server = await startTestServer({
    PUBLIC_URL: "https://lp.example",
    DNS_SERVERS: dns.address,
    DOMAIN_CNAME_TARGET: "edge.lp.example",
    TLS_ASK_PORT: "0",
  });
  const owner = await apiClient(server, null);
  const add = async (hostname: string) =>
    (await (await owner.call("/api/domains", { method: "POST", json: { hostname } })).json()) as {
      id: number;
      verification: { txtName: string; txtValue: string };
    };
  const verified = await add("links.caddy-acme.test");
  dns.zone.set(verified.verification.txtName, { txt: [[verified.verification.txtValue]] });
  dns.zone.set("links.caddy-acme.test", { cname: "edge.lp.example" });
  expect((await (await owner.call(`/api/domains/${verified.id}/verify`, { method: "POST" })).json()).status).toBe(
    "verified",
  );
  await add("pending.caddy-acme.test");
  const link = await owner.call("/api/links", {
    method: "POST",
    json: {
      targetUrl: "https://acme.test/summer",
      title: "Summer over TLS",
      description: "Served by Caddy",
      customLinkSlug: "summer",
      domain: "links.caddy-acme.test",
    },
  });
  expect(link.status).toBe(201);
  await eventually(async () =>
    expect((await fetch(`${server.askUrl}/tls/ask?domain=links.caddy-acme.test`)).status).toBe(200),
  );

  dir = mkdtempSync(join(tmpdir(), "linkprev-caddy-"));
  httpsPort = await freePort();
  const httpPort = await freePort();
  writeFileSync(
    join(dir, "Caddyfile"),
    `{
	admin off
	local_certs
	skip_install_trust
	http_port ${httpPort}
	https_port ${httpsPort}
	on_demand_tls {
		ask ${server.askUrl}/tls/ask
	}
}

https:// {
	tls internal {
		on_demand
	}
	reverse_proxy ${server.url.replace("http://", "")}
}
`,
  );
  caddy = Bun.spawn([CADDY, "run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
    env: {
      HOME: dir,
      XDG_DATA_HOME: join(dir, "data"),
      XDG_CONFIG_HOME: join(dir, "config"),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    },
    stdout: "ignore",
    stderr: Bun.file(join(dir, "caddy.log")),
  });
  // Listening, and its local CA written (the first TLS handshake needs it).
  await eventually(() => expect(existsSync(join(dir, "data/caddy/pki/authorities/local/root.crt"))).toBe(true), {
    timeoutMs: 20_000,
  });
  await eventually(
    async () => {
      await Bun.connect({
        hostname: "127.0.0.1",
        port: httpsPort,
        socket: {
          data() {},
          open(socket) {
            socket.end();
          },
        },
      });
    },
    { timeoutMs: 20_000 },
  );
});
afterAll(async () => {
  caddy?.kill();
  await caddy?.exited;
  await server?.close();
  dns?.close();
  if (dir && !process.env.KEEP_CADDY_DIR) rmSync(dir, { recursive: true, force: true });
});

test.skipIf(!present)(
  "a verified domain gets a certificate on its first handshake and serves its crawler page and its redirect",
  async () => {
    const card = await curl("links.caddy-acme.test", "/summer", crawlerAgents.crawlers.facebook![0]!);
    expect(card.error).toBe("");
    expect(card.status).toBe(200);
    expect(card.body).toContain('<meta property="og:url" content="https://links.caddy-acme.test/summer">');
    expect(card.body).toContain("Summer over TLS");
    const person = await curl("links.caddy-acme.test", "/summer", crawlerAgents.people["chrome-windows"]!);
    expect(person.status).toBe(302);
  },
);

test.skipIf(!present)("an unknown or a pending domain fails the TLS handshake: no certificate is issued", async () => {
  for (const host of ["unknown.caddy-acme.test", "pending.caddy-acme.test"]) {
    const answer = await curl(host, "/summer", "curl/8");
    expect(answer.exit, host).not.toBe(0);
    expect(answer.status).toBe(0);
    expect(answer.error).toMatch(/SSL|TLS|alert/i);
  }
});
