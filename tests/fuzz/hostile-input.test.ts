// Thousands of malformed requests to every /api route and to /go: never a 5xx, never a crash, never internal
// detail in an answer, and the database unchanged by every refused request. Seeded: FUZZ_SEED reproduces a run.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { blockHost } from "../../src/safety/host-blocks.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { startFakeVies, type FakeVies } from "../fakes/vies.ts";
import { seededRandom, type Random } from "../helpers/random.ts";
import { seedLink, seedUser, startTestServer, type TestServer, seedSession, seedApiToken } from "../helpers/server.ts";
import { subscribeInFakeStripe } from "../helpers/subscriptions.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);

let server: TestServer;
let stripe: FakeStripe;
let vies: FakeVies;
let token = "";
let cookie = "";
let linkId = 0;
let userId = 0;

beforeAll(async () => {
  stripe = startFakeStripe();
  vies = startFakeVies();
  server = await startTestServer({
    ...stripe.env,
    VIES_URL: vies.url,
    AUTH_RATE_LIMIT: "100000",
    DNS_SERVERS: "127.0.0.1:9",
    TLS_ASK_PORT: "0",
  });
  const user = await seedUser(server.sql, { userSlug: "fuzz" });
  await subscribeInFakeStripe(server, stripe, user.id, "pro");
  userId = user.id;
  linkId = await seedLink(server.sql, user.id, { linkSlug: "target" });
  token = (await seedApiToken(server.sql, user.id, "fuzz")).token;
  cookie = `lp_session=${(await seedSession(server.sql, user.id)).token}`;
});
afterAll(async () => {
  await server.close();
  stripe.stop();
  vies.stop();
});

/**
 * Every route the server serves (its pattern, as `server.routes` names it) and the path the fuzzer fills in: a
 * route added to the server without a row here fails "every route has a fuzz row".
 */
const ROUTES: Record<string, string> = {
  "GET /go/:userSlug/:linkSlug": "/go/{slug}/{slug}",
  "HEAD /go/:userSlug/:linkSlug": "/go/fuzz/{slug}",
  "GET /go/:userSlug/:linkSlug/:version": "/go/fuzz/{slug}/{text}",
  "HEAD /go/:userSlug/:linkSlug/:version": "/go/fuzz/target/{text}",
  "POST /go/:userSlug/:linkSlug": "/go/fuzz/{slug}",
  "POST /go/:userSlug/:linkSlug/:version": "/go/fuzz/target/{text}",
  "GET /uploads/:name": "/uploads/{slug}",
  "GET /assets/:name": "/assets/{slug}",
  "GET /favicon.ico": "/favicon.ico",
  "GET /healthz": "/healthz",
  "GET /readyz": "/readyz",
  "GET /livez": "/livez",
  "GET /api/version": "/api/version",
  "GET /api/openapi.json": "/api/openapi.json",
  "GET /docs/api": "/docs/api",
  "GET /docs/api/:section": "/docs/api/{slug}",
  "GET /api/auth/google": "/api/auth/google",
  "GET /api/auth/google/callback": "/api/auth/google/callback?code={text}&state={text}",
  "GET /login/:token": "/login/{slug}",
  "POST /api/auth/login-link": "/api/auth/login-link",
  "POST /api/auth/login-link/email": "/api/auth/login-link/email",
  "GET /api/auth/logout": "/api/auth/logout",
  "POST /api/auth/logout": "/api/auth/logout",
  "GET /api/auth/user": "/api/auth/user",
  "POST /api/auth/consent": "/api/auth/consent",
  "GET /api/tokens": "/api/tokens",
  "POST /api/tokens": "/api/tokens",
  "DELETE /api/tokens/:tokenId": "/api/tokens/{id}",
  "GET /api/workspaces/:id/tokens": "/api/workspaces/{id}/tokens",
  "POST /api/workspaces/:id/tokens": "/api/workspaces/{id}/tokens",
  "DELETE /api/workspaces/:id/tokens/:tokenId": "/api/workspaces/{id}/tokens/{id}",
  "GET /api/links/": "/api/links?q={text}&sort={text}&limit={text}&cursor={text}",
  "GET /api/links/deleted": "/api/links/deleted",
  "GET /api/links/stats": "/api/links/stats",
  "GET /api/links/check-slug-availability": "/api/links/check-slug-availability?slug={text}",
  "POST /api/links/": "/api/links",
  "POST /api/links/lint": "/api/links/lint",
  "POST /api/links/metadata": "/api/links/metadata",
  "GET /api/links/by-slug/:linkSlug": "/api/links/by-slug/{slug}",
  "PUT /api/links/by-slug/:linkSlug": "/api/links/by-slug/{slug}",
  "GET /api/links/:id/views": "/api/links/{id}/views?days={text}",
  "GET /api/links/:id/platforms": "/api/links/{id}/platforms",
  "GET /api/links/:id/fetches": "/api/links/{id}/fetches?limit={text}&cursor={text}",
  "POST /api/links/:id/versions": "/api/links/{id}/versions",
  "GET /api/links/:id/qr":
    "/api/links/{id}/qr?format={text}&size={text}&fg={text}&shape={text}&inverted={text}&logo={text}&logoSize={text}",
  "GET /api/qr-style/": "/api/qr-style",
  "PUT /api/qr-style/": "/api/qr-style",
  "POST /api/qr-style/logo": "/api/qr-style/logo",
  "DELETE /api/qr-style/logo": "/api/qr-style/logo",
  "DELETE /api/links/:id": "/api/links/{id}",
  "DELETE /api/links/:id/old-addresses/:addressId": "/api/links/{id}/old-addresses/{id}",
  "GET /api/webhooks/": "/api/webhooks",
  "POST /api/webhooks/": "/api/webhooks",
  "PATCH /api/webhooks/:id": "/api/webhooks/{id}",
  "DELETE /api/webhooks/:id": "/api/webhooks/{id}",
  "GET /api/workspaces/:id/invites": "/api/workspaces/{id}/invites",
  "POST /api/workspaces/:id/invites": "/api/workspaces/{id}/invites",
  "DELETE /api/workspaces/:id/invites/:inviteId": "/api/workspaces/{id}/invites/{id}",
  "GET /api/workspaces/:id/members": "/api/workspaces/{id}/members",
  "PATCH /api/workspaces/:id/members/:userId": "/api/workspaces/{id}/members/{id}",
  "DELETE /api/workspaces/:id/members/:userId": "/api/workspaces/{id}/members/{id}",
  "POST /api/invites/:token/accept": "/api/invites/{slug}/accept",
  "GET /invites/:token": "/invites/{slug}",
  "POST /invites/:token": "/invites/{slug}",
  "POST /api/webhooks/:id/test": "/api/webhooks/{id}/test",
  "POST /api/webhooks/:id/rotate-secret": "/api/webhooks/{id}/rotate-secret",
  "GET /api/webhooks/:id/deliveries": "/api/webhooks/{id}/deliveries",
  "POST /api/webhooks/:id/deliveries/:deliveryId/resend": "/api/webhooks/{id}/deliveries/{id}/resend",
  "GET /api/links/export.csv": "/api/links/export.csv",
  "GET /api/domains/": "/api/domains",
  "POST /api/domains/": "/api/domains",
  "GET /api/domains/:id": "/api/domains/{id}",
  "POST /api/domains/:id/verify": "/api/domains/{id}/verify",
  "PATCH /api/domains/:id": "/api/domains/{id}",
  "DELETE /api/domains/:id": "/api/domains/{id}",
  "GET /api/workspaces/": "/api/workspaces?workspace={text}",
  "POST /api/workspaces/": "/api/workspaces",
  "GET /api/workspaces/:id": "/api/workspaces/{id}",
  "PATCH /api/workspaces/:id": "/api/workspaces/{id}",
  "GET /api/workspaces/:id/audit": "/api/workspaces/{id}/audit?limit={text}&cursor={text}",
  "GET /api/workspaces/:id/audit.csv": "/api/workspaces/{id}/audit.csv",
  "DELETE /api/workspaces/:id": "/api/workspaces/{id}?confirmSlug={text}",
  "GET /api/workspaces/:id/export": "/api/workspaces/{id}/export",
  "GET /api/account/export": "/api/account/export",
  "DELETE /api/account": "/api/account",
  "POST /api/reports": "/api/reports",
  "GET /api/plans": "/api/plans",
  "GET /api/business/info": "/api/business/info",
  "GET /api/subscriptions/active": "/api/subscriptions/active",
  "POST /api/subscriptions": "/api/subscriptions",
  "POST /api/subscriptions/cancel": "/api/subscriptions/cancel",
  "POST /api/subscriptions/reactivate": "/api/subscriptions/reactivate",
  "POST /api/stripe/webhook": "/api/stripe/webhook",
  "POST /api/vat/validate": "/api/vat/validate",
  "DELETE /api/vat": "/api/vat",
  "GET /payment-success": "/payment-success",
  "GET /": "/",
  "GET /pricing": "/pricing",
  "GET /about": "/about",
  "GET /privacy": "/privacy",
  "GET /account-deleted": "/account-deleted",
  "GET /terms": "/terms",
  "GET /contact": "/contact",
  "GET /admin": "/admin?q={text}&sort={text}&page={text}",
  "GET /admin/link/new": "/admin/link/new",
  "GET /admin/domains": "/admin/domains",
  "GET /admin/webhooks": "/admin/webhooks",
  "GET /admin/workspace": "/admin/workspace?workspace={text}",
  "GET /admin/workspace/members": "/admin/workspace/members?workspace={text}",
  "GET /admin/workspace/tokens": "/admin/workspace/tokens?workspace={text}",
  "GET /admin/workspace/domains": "/admin/workspace/domains?workspace={text}",
  "GET /admin/workspace/webhooks": "/admin/workspace/webhooks?workspace={text}",
  "GET /admin/workspace/billing": "/admin/workspace/billing?workspace={text}",
  "GET /admin/workspace/audit": "/admin/workspace/audit?workspace={text}&cursor={text}",
  "GET /account": "/account",
  "GET /account/data": "/account/data",
  "GET /account/delete": "/account/delete",
  "GET /admin/link/edit/:linkSlug": "/admin/link/edit/{slug}",
  "GET /admin/link/stats/:linkSlug": "/admin/link/stats/{slug}?range={text}",
  "GET /admin/link/stats/:linkSlug/csv": "/admin/link/stats/{slug}/csv?range={text}&table={text}",
};

/** Percent-escapes that decode to nothing: not hex, cut short, a truncated sequence, overlong UTF-8, a lone surrogate. */
const MALFORMED_ESCAPES = ["%ZZ", "%", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "a%ZZb", "%%30"];

test("every route has a fuzz row", () => {
  expect(server.routes.filter((route) => !(route in ROUTES))).toEqual([]);
  expect(Object.keys(ROUTES).filter((route) => !server.routes.includes(route))).toEqual([]);
});

const NASTY_TEXT = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9".repeat(40),
  "true",
  "[]",
  "{}",
  "../../etc/passwd",
  "..%2f..%2fdata%2flinkprev.db",
  "%00",
  "\u0000",
  "a\r\nSet-Cookie: evil=1",
  "https://example.com/%0d%0aSet-Cookie:%20x=1",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; DROP TABLE links; --',
  "\ud800",
  "💥".repeat(50),
  "ﾟ･✿ヾ╲(｡◕‿◕｡)╱✿･ﾟ",
  "admin",
  "go",
  "a".repeat(21),
  "https://" + "a".repeat(3000) + ".com",
  "http://localhost/go/fuzz/target",
  "ftp://x",
  "//evil.example",
  "http://[::1",
  "x".repeat(100_000),
  // Under 2048 characters as typed, over once stored (each é percent-encoded to 6).
  `https://a.example/${"é".repeat(1000)}`,
];

function randomValue(r: Random, depth = 0): unknown {
  switch (r.int(0, 7)) {
    case 0:
      return r.pick(NASTY_TEXT);
    case 1:
      return r.int(-1e9, 1e9) * (r.chance(0.5) ? 1.5 : 1);
    case 2:
      return r.chance(0.5);
    case 3:
      return null;
    case 4:
      return depth < 3 ? Array.from({ length: r.int(0, 3) }, () => randomValue(r, depth + 1)) : [];
    case 5:
      return depth < 3 ? { nested: randomValue(r, depth + 1), __proto__: { polluted: true } } : {};
    case 6:
      return "x".repeat(r.int(0, 5000));
    default:
      return r.pick([
        "https://example.com/page",
        "launch",
        "DE",
        "123456789",
        "pro",
        "basic",
        "enterprise",
        "upload",
        "ai",
      ]);
  }
}

const FIELDS = [
  "title",
  "description",
  "targetUrl",
  "customLinkSlug",
  "imageUrl",
  "imageSource",
  "planId",
  "vatInfo",
  "countryCode",
  "vatNumber",
  "termsAccepted",
  "privacyAccepted",
  "name",
  "token",
  "id",
  "type",
  "data",
];

function randomObject(r: Random): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = r.int(0, 8); i > 0; i--) object[r.pick(FIELDS)] = randomValue(r);
  if (r.chance(0.3)) object[`extra_${r.int(0, 99)}`] = randomValue(r);
  return object;
}

const encoder = new TextEncoder();

/** A request body and its content type, malformed in one of many ways. */
function randomBody(r: Random): { body?: BodyInit; type?: string } {
  switch (r.int(0, 11)) {
    case 0:
      return {};
    case 1:
      return { body: JSON.stringify(randomObject(r)), type: "application/json" };
    case 2:
      return { body: JSON.stringify(randomObject(r)).slice(0, r.int(0, 40)), type: "application/json" };
    case 3:
      return { body: "{not json", type: "application/json" };
    case 4:
      return {
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
        type: "application/json",
      };
    case 5: {
      const form = new FormData();
      for (const [key, value] of Object.entries(randomObject(r)))
        form.append(key, typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
      if (r.chance(0.5))
        form.append(
          "image",
          new File(
            [encoder.encode(r.pick(["<svg onload=alert(1)>", "GIF89a", "\xff\xd8\xffgarbage", "RIFF0000WEBPjunk"]))],
            r.pick(["../../x.png", "a.svg", "evil.php\u0000.png", "ok.jpg"]),
            { type: r.pick(["image/png", "image/svg+xml", "text/html"]) },
          ),
        );
      return { body: form };
    }
    case 6: {
      const boundary = `----fuzz${r.int(0, 1e6)}`;
      const text = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="../../../etc/passwd"\r\nContent-Type: image/png\r\n\r\n\x89PNG`;
      return {
        body: text.slice(0, r.int(10, text.length)),
        type: `multipart/form-data; boundary=${r.chance(0.5) ? boundary : "wrong"}`,
      };
    }
    case 7:
      return {
        body: new URLSearchParams(Object.entries(randomObject(r)).map(([k, v]) => [k, String(v)])),
        type: "application/x-www-form-urlencoded",
      };
    case 8:
      return {
        body: JSON.stringify(randomValue(r)),
        type: r.pick(["application/json", "text/plain", "application/xml", "image/png"]),
      };
    case 9:
      return { body: "a".repeat(r.int(1, 200_000)), type: r.pick(["application/json", "text/plain"]) };
    case 10:
      return r.chance(0.05)
        ? { body: new Uint8Array(10 * 1024 * 1024), type: "application/json" }
        : { body: "[]", type: "application/json" };
    default:
      return {
        body: JSON.stringify({
          title: "t",
          description: "d",
          targetUrl: r.pick(NASTY_TEXT),
          customLinkSlug: r.pick(NASTY_TEXT),
        }),
        type: "application/json",
      };
  }
}

// Lone surrogates cannot be percent-encoded: they go as U+FFFD.
const encode = (text: string) => encodeURIComponent(text.toWellFormed());

function fillPath(r: Random, template: string): string {
  return template
    .replace(/\{slug\}/g, () =>
      encode(r.pick([...NASTY_TEXT.filter((t) => t.length < 200), "target", "fuzz"])).replace(
        /%2F/gi,
        r.chance(0.5) ? "/" : "%2F",
      ),
    )
    .replace(/\{id\}/g, () =>
      r.pick([String(linkId), "0", "-1", "1e3", "abc", "99999999999999999999", "%00", String(linkId + 1)]),
    )
    .replace(/\{text\}/g, () => encode(r.pick(NASTY_TEXT).slice(0, 300)));
}

/** Everything a refused request must leave alone. */
async function snapshot(): Promise<string> {
  const rows = async (sql: string) => JSON.stringify(await server.sql.all(sql));
  return (
    await Promise.all([
      rows(
        "SELECT id, user_id, link_slug, target_url, title, description, image_url, image_source, deleted FROM links ORDER BY id",
      ),
      rows("SELECT id, email, user_slug, first_name FROM users ORDER BY id"),
      rows("SELECT id, slug, stripe_customer_id, vat_country_code, vat_number FROM workspaces ORDER BY id"),
      rows("SELECT id, user_id, name FROM api_tokens ORDER BY id"),
      rows("SELECT id, user_id, plan_id, status, cancel_at_period_end FROM subscriptions ORDER BY id"),
      rows("SELECT CAST(count(*) AS INTEGER) AS n FROM user_consents"),
      rows("SELECT CAST(count(*) AS INTEGER) AS n FROM payments"),
      rows("SELECT CAST(count(*) AS INTEGER) AS n FROM stripe_events"),
    ])
  ).join("\n");
}

/** The API reference describes the API in words ("at exists (…)"): its fixed text is no leak. */
const REFERENCE_TEXT = new Set(["/docs/api", "/docs/api/links", "/docs/api/schemas", "/api/openapi.json"]);
const LEAKS =
  /node_modules|\/src\/|\.tsx?:\d+|SQLITE_|sqlite|postgres|at \w+ \(|stack|TypeError|ReferenceError|drizzle|elysia/i;

test(`${REQUESTS} hostile requests (seed ${SEED}): no 5xx, no leaks, refused requests change nothing`, async () => {
  const r = seededRandom(SEED);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < REQUESTS; i++) {
    const [route, template] = r.pick(Object.entries(ROUTES));
    const method = route.split(" ")[0]!;
    const path = fillPath(r, template);
    const { body, type } = method === "GET" || method === "HEAD" ? {} : randomBody(r);
    const headers: Record<string, string> = {};
    if (type) headers["content-type"] = type;
    switch (r.int(0, 3)) {
      case 0:
        headers.authorization = `Bearer ${token}`;
        break;
      case 1:
        Object.assign(headers, { cookie, origin: server.url });
        break;
      case 2:
        headers.authorization = `Bearer ${r.pick(NASTY_TEXT).replace(/[\r\n\u0000-\u001f\u007f-\uffff]/g, "")}`;
        break;
    }
    if (r.chance(0.3))
      headers["user-agent"] = r.pick([
        "",
        "Twitterbot/1.0",
        "x".repeat(5000),
        "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
      ]);
    if (r.chance(0.1)) headers["x-forwarded-for"] = r.pick(NASTY_TEXT).replace(/[\r\n\u0000-\u001f\u007f-\uffff]/g, "");

    const before = await snapshot();
    let response: Response;
    try {
      response = await fetch(`${server.url}${path}`, { method, headers, body, redirect: "manual" });
    } catch (error) {
      failures.push(`#${i} ${method} ${path.slice(0, 80)}: connection failed: ${error}`);
      continue;
    }
    const text = await response.text();
    // A sign-out ends the fuzzer's session: later cookie requests get a fresh one.
    if (route.includes("/api/auth/logout")) cookie = `lp_session=${(await seedSession(server.sql, userId)).token}`;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status >= 500)
      failures.push(`#${i} ${method} ${path.slice(0, 80)} → ${response.status} ${text.slice(0, 200)}`);
    if (LEAKS.test(text) && !path.startsWith("/go/") && !REFERENCE_TEXT.has(path))
      failures.push(`#${i} ${method} ${path.slice(0, 80)} leaks: ${text.match(LEAKS)?.[0]}`);
    if (response.status >= 400 && (await snapshot()) !== before)
      failures.push(`#${i} ${method} ${path.slice(0, 80)} → ${response.status} but the database changed`);
    if (failures.length >= 10) break;
  }
  console.log(
    `fuzz seed ${SEED}: ${REQUESTS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  expect(failures).toEqual([]);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}, 180_000);

test("malformed percent-escapes in any path parameter: a 400 or 404 with a readable message, never a 5xx, nothing changed", async () => {
  const failures: string[] = [];
  const valid: Record<string, string> = {
    userSlug: "fuzz",
    linkSlug: "target",
    version: "1",
    id: String(linkId),
    name: "x.jpg",
    token: "sometoken",
  };
  const parameterised = server.routes.filter((route) => route.includes("/:"));
  expect(parameterised.length).toBeGreaterThanOrEqual(12);
  for (const route of parameterised) {
    const [method, pattern] = route.split(" ") as [string, string];
    const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    for (const bad of MALFORMED_ESCAPES) {
      for (const name of names) {
        const path = pattern.replace(/:(\w+)/g, (_, param: string) => (param === name ? bad : (valid[param] ?? "x")));
        const callers: Array<Record<string, string>> = [
          { authorization: `Bearer ${token}` },
          { cookie, origin: server.url, "sec-fetch-site": "same-origin" },
        ];
        for (const credentials of callers) {
          const before = await snapshot();
          const response = await fetch(`${server.url}${path}`, {
            method,
            headers: { ...credentials, "content-type": "application/json" },
            body: method === "GET" || method === "HEAD" ? undefined : "{}",
            redirect: "manual",
          });
          const text = await response.text();
          const where = `${method} ${path} (${Object.keys(credentials)[0]})`;
          if (response.status !== 400 && response.status !== 404)
            failures.push(`${where} → ${response.status} ${text.slice(0, 120)}`);
          else if (method !== "HEAD" && path.startsWith("/api/") && typeof JSON.parse(text).message !== "string")
            failures.push(`${where}: no {"message"}`);
          if ((await snapshot()) !== before) failures.push(`${where} changed the database`);
        }
      }
    }
  }
  expect(failures).toEqual([]);
}, 120_000);

/** Sends `head` as written (fetch would mend its Host) and reads the answer's status line. */
function rawStatus(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1", () => socket.write(head));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
      if (answer.includes("\r\n")) {
        resolve(answer.slice(0, answer.indexOf("\r\n")));
        socket.destroy();
      }
    });
    socket.on("error", reject);
    socket.on("end", () => resolve(answer));
  });
}

/** Host headers no URL can be built from: a bad port, spaces, broken brackets, user info, none at all. */
const MALFORMED_HOSTS = [
  "Host: lp.test:abc",
  "Host: lp.test:99999",
  "Host: lp .test",
  "Host: ",
  "Host: [::1",
  "Host: a@b",
  "Host: lp.test:80:80",
  "Host: %zz",
  "Host: a\\b",
];

test("a malformed or missing Host header: a 400 on every kind of route, never a 5xx (no stack in the log)", async () => {
  const failures: string[] = [];
  for (const path of ["/", "/api/version", "/api/links", "/dashboard", "/api/reports", "/privacy"]) {
    const heads = [
      ...MALFORMED_HOSTS.map((host) => `GET ${path} HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`),
      `GET ${path} HTTP/1.0\r\n\r\n`,
      `POST ${path} HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}`,
    ];
    for (const head of heads) {
      const status = await rawStatus(head);
      if (!/^HTTP\/1\.[01] 400 /.test(status)) failures.push(`${JSON.stringify(head.slice(0, 60))} → ${status}`);
    }
  }
  // The request thread's own routes too, on real links (each of these read the URL and failed with a stack): an
  // inspect page, a version, a password link's form answered with its right password.
  // An owner of its own: the hostile requests above may have revoked the fuzzer's token or ended its plan.
  const keeper = await seedUser(server.sql, { userSlug: "keeper" });
  await subscribeInFakeStripe(server, stripe, keeper.id, "pro");
  const keeperToken = (await seedApiToken(server.sql, keeper.id, "keeper")).token;
  const api = (path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${keeperToken}`, "content-type": "application/json" },
      body: JSON.stringify(body ?? {}),
    });
  const card = { title: "Hosted", description: "A card" };
  const shown = (await (
    await api("/api/links", { ...card, targetUrl: "https://example.com/hosted", customLinkSlug: "hosted" })
  ).json()) as { id: number };
  expect((await api(`/api/links/${shown.id}/versions`)).status).toBe(201);
  expect(
    (
      await api("/api/links", {
        ...card,
        targetUrl: "https://example.com/locked",
        customLinkSlug: "locked",
        password: "open sesame",
      })
    ).status,
  ).toBe(201);
  const form = "password=open+sesame";
  // A person's browser: a crawler is never asked for the password.
  const browser = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
  for (const [method, path, body] of [
    ["GET", "/go/keeper/hosted+", ""],
    ["GET", "/go/keeper/hosted/2", ""],
    ["HEAD", "/go/keeper/hosted", ""],
    ["POST", "/go/keeper/locked", form],
    ["GET", "/go/fuzz/nothing", ""],
    ["GET", "/uploads/x.png", ""],
    ["GET", "/healthz", ""],
    ["GET", "/livez", ""],
  ]) {
    const rest =
      `User-Agent: ${browser}\r\n` +
      (body
        ? `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`
        : "\r\n");
    const heads = [
      ...MALFORMED_HOSTS.map((host) => `${method} ${path} HTTP/1.1\r\n${host}\r\nConnection: close\r\n${rest}`),
      `${method} ${path} HTTP/1.0\r\n${rest}`,
    ];
    for (const head of heads) {
      const status = await rawStatus(head);
      if (!/^HTTP\/1\.[01] 400 /.test(status)) failures.push(`${JSON.stringify(head.slice(0, 60))} → ${status}`);
    }
  }
  expect(failures).toEqual([]);
  // With a Host, the same answer is taken: back to the link, now open to this browser.
  const right = await fetch(`${server.url}/go/keeper/locked`, {
    method: "POST",
    redirect: "manual",
    headers: { "user-agent": browser },
    body: new URLSearchParams({ password: "open sesame" }),
  });
  expect(right.headers.get("location")).toBe("/go/keeper/locked");
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});

/** The ask listener's routes (TLS_ASK_PORT), fuzzed below through their one parameter, `domain`. */
const ASK_ROUTES: Record<string, string> = { "GET /tls/ask": "/tls/ask", "HEAD /tls/ask": "/tls/ask" };

test("every ask-listener route has a fuzz row", () => {
  expect(server.askRoutes.filter((route) => !(route in ASK_ROUTES))).toEqual([]);
  expect(Object.keys(ASK_ROUTES).filter((route) => !server.askRoutes.includes(route))).toEqual([]);
});

/** Query strings no served domain matches: huge, malformed punycode, IP literals, unicode, repeated, missing, broken escapes. */
const HOSTILE_ASKS = [
  "",
  "?",
  "?domain",
  "?domain=",
  "?DOMAIN=fuzz.test",
  `?domain=${"a".repeat(10_000)}.test`,
  `?domain=${"a".repeat(60_000)}.test`,
  `?domain=${"a.".repeat(2000)}test`,
  ...[
    "xn--",
    "xn--zz",
    "xn--ls8h-",
    "xn--abc--.test",
    "xn--55qx5d.xn--",
    "XN--MNCHEN-3YA.DE.",
    "xn--mnchen-3ya.de:99999",
  ].map((name) => `?domain=${name}`),
  ...[
    "127.0.0.1",
    "[::1]",
    "::1",
    "[::ffff:127.0.0.1]:443",
    "0x7f.1",
    "2130706433",
    "169.254.169.254",
    "1.2.3.4:443",
  ].map((name) => `?domain=${encodeURIComponent(name)}`),
  ...["münchen.de", "☃.com", "ｅｘａｍｐｌｅ．ｃｏｍ", "a\u202eb.test", "a\u0000b.test", "💥".repeat(500)].map(
    (name) => `?domain=${encodeURIComponent(name)}`,
  ),
  "?domain=a.test&domain=b.test",
  "?domain=&domain=fuzz.test",
  "?domain[]=x.test",
  ...MALFORMED_ESCAPES.map((bad) => `?domain=${bad}`),
  ...NASTY_TEXT.filter((text) => text.isWellFormed()).map((text) => `?domain=${encodeURIComponent(text)}`),
];

test("hostile domain= values on the ask listener: always a quick 403 (431 past Bun's header limit), never a 5xx", async () => {
  const failures: string[] = [];
  let slowest = 0;
  for (const route of Object.keys(ASK_ROUTES)) {
    const [method, path] = route.split(" ") as [string, string];
    for (const query of HOSTILE_ASKS) {
      const started = performance.now();
      const response = await fetch(`${server.askUrl}${path}${query}`, { method });
      await response.arrayBuffer();
      const took = performance.now() - started;
      slowest = Math.max(slowest, took);
      // Bun itself refuses a request line over its header limit (16 KB) with 431 before the handler: refused too.
      const refused = response.status === 403 || (response.status === 431 && query.length > 16_384);
      // Quick: an answer from memory, no DNS or database (a generous bound for a loaded test machine).
      if (!refused || took > 1000)
        failures.push(`${method} ${path}${query.slice(0, 60)} → ${response.status} in ${Math.round(took)} ms`);
    }
  }
  console.log(`ask listener: ${HOSTILE_ASKS.length * 2} hostile asks, slowest ${Math.round(slowest)} ms`);
  expect(failures).toEqual([]);
  // Nothing else on that listener answers as if it were the ask route.
  expect((await fetch(`${server.askUrl}/tls/ask?domain=x.test`, { method: "POST" })).status).toBe(405);
  expect((await fetch(`${server.askUrl}/tls/ask/..?domain=x.test`)).status).not.toBe(200);
  expect((await fetch(`${server.askUrl}/api/links`)).status).toBe(404);
});

/** A host written the ways that name the same host: case, trailing dots, default ports, userinfo, fullwidth forms. */
function hostSpelling(r: Random, host: string): string {
  const fullwidth = (text: string) =>
    [...text]
      .map((c) =>
        /[a-z0-9-]/i.test(c) && r.chance(0.5)
          ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0)
          : c === "." && r.chance(0.3)
            ? r.pick(["．", "。"])
            : c,
      )
      .join("");
  let name = r.pick(["", "www.", "login.", "a.b."]) + host;
  name = [...name].map((c) => (r.chance(0.4) ? c.toUpperCase() : c)).join("");
  if (r.chance(0.3)) name = fullwidth(name);
  name += r.pick(["", ".", ".", ".."]);
  const secure = r.chance(0.7);
  const port = r.chance(0.4) ? (secure ? ":443" : ":80") : "";
  return `${secure ? "https" : "http"}://${r.chance(0.2) ? "user@" : ""}${name}${port}/${r.pick(["", "login", "x?y=1"])}`;
}

test("host spellings of a blocked host (trailing dot, :443, case, IDN and punycode, fullwidth): every destination field refused, nothing stored", async () => {
  await blockHost(server.ctx.safety, "blocked-fuzz.example", "fuzz", "fuzzing");
  await blockHost(server.ctx.safety, "bücher-fuzz.example", "fuzz", "fuzzing");
  // An owner of its own: the hostile requests above may have revoked the fuzzer's token or ended its plan.
  const owner = await seedUser(server.sql, { userSlug: "hosts" });
  await subscribeInFakeStripe(server, stripe, owner.id, "pro");
  const ownerToken = (await seedApiToken(server.sql, owner.id, "hosts")).token;
  const r = seededRandom(SEED + 1);
  const before = await snapshot();
  const failures: string[] = [];
  for (let i = 0; i < 150; i++) {
    const url = hostSpelling(
      r,
      r.pick(["blocked-fuzz.example", "bücher-fuzz.example", "BÜCHER-fuzz.example", "xn--bcher-fuzz-9db.example"]),
    );
    const field = r.pick(["targetUrl", "rule", "expiredUrl"]);
    const fields =
      field === "targetUrl"
        ? { targetUrl: url }
        : field === "rule"
          ? { rules: [{ when: { device: "ios" }, targetUrl: url }] }
          : { expiresAt: "2030-01-01T00:00:00Z", expiredUrl: url };
    const response = await fetch(`${server.url}/api/links`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "t", description: "d", targetUrl: "https://example.com/", ...fields }),
    });
    if (response.status !== 422) failures.push(`${field} ${url} → ${response.status}`);
  }
  expect(failures).toEqual([]);
  expect(await snapshot()).toBe(before);
});
