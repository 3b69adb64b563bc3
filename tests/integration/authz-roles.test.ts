// The authorization matrix's role dimension (docs/decisions/0063): every /api route that acts in a workspace, called
// in a team workspace by a member of each role and by someone who belongs only to another workspace. What a role
// may do is src/workspaces/permissions.ts's table, read here too: the test fails when a route's guard and its row
// disagree, and a new /api route without a row (or a place in ACCOUNT_ROUTES) fails "every route has a row".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ROLES, type Role } from "../../src/workspaces/model.ts";
import { type Action, may } from "../../src/workspaces/permissions.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { seedSession, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";
import { subscribeInFakeStripe } from "../helpers/subscriptions.ts";

type Caller = Role | "outsider";
const CALLERS: Caller[] = [...ROLES, "outsider"];
type Call = { path: string; json?: unknown };
/** `needs`: the action the route's guard asks for; null: any member (or, for account routes, any user). */
type Row = { call: () => Call | Promise<Call>; needs: Action | null; ok: number };

let server: TestServer;
let stripe: FakeStripe;
let team: number;
const members = {} as Record<Caller, { id: number }>;

/** Non-GET routes that leave no audit row (src/workspaces/audit-record.ts says why). */
const NOT_A_WORKSPACE_WRITE = [
  "POST /api/links/lint",
  "POST /api/links/metadata",
  "POST /api/workspaces/",
  "DELETE /api/workspaces/:id",
];
const auditCount = async () => (await server.sql.get<{ n: number }>("SELECT count(*) AS n FROM audit_events"))!.n;
const sql = (text: string, ...params: unknown[]) => server.sql.get<{ id: number }>(text, ...(params as never[]));
const inTeam = (text: string, ...params: unknown[]) => sql(text, team, members.owner.id, ...params);
const teamLink = async () => {
  const slug = `l${crypto.randomUUID().slice(0, 8)}`;
  const row = await inTeam(
    "INSERT INTO links (workspace_id, user_id, link_slug, target_url, title, description) VALUES (?, ?, ?, 'https://example.com/', 't', 'd') RETURNING id",
    slug,
  );
  return { slug, id: row!.id };
};
const teamDomain = async () =>
  (await inTeam(
    "INSERT INTO domains (workspace_id, user_id, hostname, verification_token) VALUES (?, ?, ?, 'linkprev-verify=x') RETURNING id",
    `r${crypto.randomUUID().slice(0, 8)}.roles.test`,
  ))!.id;
const teamEndpoint = async () =>
  (await inTeam(
    "INSERT INTO webhook_endpoints (workspace_id, user_id, url, events, secret) VALUES (?, ?, 'https://127.0.0.1:9/hooks', '[\"link.created\"]', 'whsec_AAAA') RETURNING id",
  ))!.id;
/** A subscription of the team's, in the fake Stripe and in the database (as a checkout for the team records it). */
const teamSubscription = async (plan: "basic" | "pro", options: { canceled?: boolean } = {}) => {
  const id = await subscribeInFakeStripe(server, stripe, members.owner.id, plan, options);
  await server.sql.run("UPDATE subscriptions SET workspace_id = ? WHERE stripe_subscription_id = ?", team, id);
};

/** A fresh member (role member) of the team: whom PATCH and DELETE …/members/{userId} act on. */
const teamMember = async () => {
  const user = await seedUser(server.sql);
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'member')",
    team,
    user.id,
  );
  return user.id;
};
/** A team of its own on enterprise (unlimited seats), where every caller but the outsider holds their role. */
const unlimitedTeam = async () => {
  const id = (await sql(
    "INSERT INTO workspaces (slug, name) VALUES (?, 'Seats') RETURNING id",
    `s${crypto.randomUUID().slice(0, 8)}`,
  ))!.id;
  for (const role of ROLES)
    await server.sql.run(
      "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)",
      id,
      members[role].id,
      role,
    );
  await server.sql.run(
    `INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, stripe_price_id, status, plan_id, current_period_start, current_period_end)
     VALUES (?, ?, ?, 'price_enterprise', 'active', 'enterprise', ?, ?)`,
    members.owner.id,
    id,
    `sub_${crypto.randomUUID()}`,
    new Date(Date.now() - 86_400_000),
    new Date(Date.now() + 29 * 86_400_000),
  );
  return id;
};

const link = { title: "t", description: "d", targetUrl: "https://example.com/" };
const ROUTES: Record<string, Row> = {
  "GET /api/links/": { call: () => ({ path: "/api/links" }), needs: "links.read", ok: 200 },
  "GET /api/links/deleted": { call: () => ({ path: "/api/links/deleted" }), needs: "links.read", ok: 200 },
  "GET /api/links/stats": { call: () => ({ path: "/api/links/stats" }), needs: "analytics.read", ok: 200 },
  "GET /api/links/export.csv": { call: () => ({ path: "/api/links/export.csv" }), needs: "analytics.read", ok: 200 },
  "GET /api/links/check-slug-availability": {
    call: () => ({ path: "/api/links/check-slug-availability?slug=free" }),
    needs: "links.read",
    ok: 200,
  },
  "POST /api/links/": { call: () => ({ path: "/api/links", json: link }), needs: "links.write", ok: 201 },
  "POST /api/links/lint": { call: () => ({ path: "/api/links/lint", json: link }), needs: null, ok: 200 },
  "POST /api/links/metadata": {
    call: () => ({ path: "/api/links/metadata", json: { url: "http://10.0.0.1/" } }),
    needs: null,
    ok: 422,
  },
  "GET /api/links/by-slug/:linkSlug": {
    call: async () => ({ path: `/api/links/by-slug/${(await teamLink()).slug}` }),
    needs: "links.read",
    ok: 200,
  },
  "PUT /api/links/by-slug/:linkSlug": {
    call: async () => ({ path: `/api/links/by-slug/${(await teamLink()).slug}`, json: link }),
    needs: "links.write",
    ok: 200,
  },
  "GET /api/links/:id/views": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}/views` }),
    needs: "analytics.read",
    ok: 200,
  },
  "GET /api/links/:id/platforms": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}/platforms` }),
    needs: "analytics.read",
    ok: 200,
  },
  "GET /api/links/:id/qr": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}/qr` }),
    needs: "links.read",
    ok: 200,
  },
  "GET /api/qr-style/": { call: () => ({ path: "/api/qr-style" }), needs: "links.read", ok: 200 },
  "PUT /api/qr-style/": {
    call: () => ({ path: "/api/qr-style", json: { shape: "dots" } }),
    needs: "links.write",
    ok: 200,
  },
  // A logo is multipart: a JSON body reaches the route's schema only past the guard (then 400).
  "POST /api/qr-style/logo": { call: () => ({ path: "/api/qr-style/logo", json: {} }), needs: "links.write", ok: 400 },
  "DELETE /api/qr-style/logo": { call: () => ({ path: "/api/qr-style/logo" }), needs: "links.write", ok: 200 },
  "GET /api/links/:id/fetches": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}/fetches` }),
    needs: "analytics.read",
    ok: 200,
  },
  "POST /api/links/:id/versions": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}/versions` }),
    needs: "links.write",
    ok: 201,
  },
  "DELETE /api/links/:id/old-addresses/:addressId": {
    call: async () => {
      const { id } = await teamLink();
      const old = await inTeam(
        "INSERT INTO link_old_addresses (workspace_id, user_id, link_id, link_slug) VALUES (?, ?, ?, ?) RETURNING id",
        id,
        `o${crypto.randomUUID().slice(0, 8)}`,
      );
      return { path: `/api/links/${id}/old-addresses/${old!.id}` };
    },
    needs: "links.write",
    ok: 204,
  },
  "DELETE /api/links/:id": {
    call: async () => ({ path: `/api/links/${(await teamLink()).id}` }),
    needs: "links.write",
    ok: 204,
  },
  "GET /api/domains/": { call: () => ({ path: "/api/domains" }), needs: "settings.read", ok: 200 },
  "POST /api/domains/": {
    call: async () => {
      await server.sql.run("DELETE FROM domains WHERE workspace_id = ?", team);
      return { path: "/api/domains", json: { hostname: `n${crypto.randomUUID().slice(0, 8)}.roles.test` } };
    },
    needs: "domains.write",
    ok: 201,
  },
  "GET /api/domains/:id": {
    call: async () => ({ path: `/api/domains/${await teamDomain()}` }),
    needs: "settings.read",
    ok: 200,
  },
  "POST /api/domains/:id/verify": {
    call: async () => ({ path: `/api/domains/${await teamDomain()}/verify` }),
    needs: "domains.write",
    ok: 200,
  },
  "PATCH /api/domains/:id": {
    call: async () => ({ path: `/api/domains/${await teamDomain()}`, json: { rootUrl: "https://example.com/" } }),
    needs: "domains.write",
    ok: 200,
  },
  "DELETE /api/domains/:id": {
    call: async () => ({ path: `/api/domains/${await teamDomain()}` }),
    needs: "domains.write",
    ok: 204,
  },
  "GET /api/webhooks/": { call: () => ({ path: "/api/webhooks" }), needs: "settings.read", ok: 200 },
  "POST /api/webhooks/": {
    call: async () => {
      await server.sql.run("DELETE FROM webhook_endpoints WHERE workspace_id = ?", team);
      return { path: "/api/webhooks", json: { url: "https://93.184.215.14/hooks", events: ["domain.verified"] } };
    },
    needs: "webhooks.write",
    ok: 201,
  },
  "PATCH /api/webhooks/:id": {
    call: async () => ({ path: `/api/webhooks/${await teamEndpoint()}`, json: { description: "renamed" } }),
    needs: "webhooks.write",
    ok: 200,
  },
  "DELETE /api/webhooks/:id": {
    call: async () => ({ path: `/api/webhooks/${await teamEndpoint()}` }),
    needs: "webhooks.write",
    ok: 204,
  },
  "POST /api/webhooks/:id/test": {
    call: async () => ({ path: `/api/webhooks/${await teamEndpoint()}/test` }),
    needs: "webhooks.write",
    ok: 202,
  },
  "POST /api/webhooks/:id/rotate-secret": {
    call: async () => ({ path: `/api/webhooks/${await teamEndpoint()}/rotate-secret` }),
    needs: "webhooks.write",
    ok: 200,
  },
  "GET /api/webhooks/:id/deliveries": {
    call: async () => ({ path: `/api/webhooks/${await teamEndpoint()}/deliveries` }),
    needs: "settings.read",
    ok: 200,
  },
  "POST /api/webhooks/:id/deliveries/:deliveryId/resend": {
    call: async () => {
      const endpoint = await teamEndpoint();
      const delivery = await inTeam(
        "INSERT INTO webhook_deliveries (workspace_id, user_id, endpoint_id, event_id, type, payload, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'webhook.test', '{}', 'failed', 7, ?, ?) RETURNING id",
        endpoint,
        `msg_${crypto.randomUUID()}`,
        Date.now(),
        Date.now(),
      );
      return { path: `/api/webhooks/${endpoint}/deliveries/${delivery!.id}/resend` };
    },
    needs: "webhooks.write",
    ok: 202,
  },
  "GET /api/tokens": { call: () => ({ path: "/api/tokens" }), needs: "settings.read", ok: 200 },
  "POST /api/tokens": {
    call: () => ({ path: "/api/tokens", json: { name: "roles" } }),
    needs: "tokens.write",
    ok: 201,
  },
  "DELETE /api/tokens/:tokenId": {
    call: async () => ({
      path: `/api/tokens/${(await inTeam("INSERT INTO api_tokens (workspace_id, user_id, name, token_hash) VALUES (?, ?, 'victim', ?) RETURNING id", crypto.randomUUID()))!.id}`,
    }),
    needs: "tokens.write",
    ok: 204,
  },
  "GET /api/workspaces/:id/tokens": {
    call: () => ({ path: `/api/workspaces/${team}/tokens` }),
    needs: "settings.read",
    ok: 200,
  },
  "POST /api/workspaces/:id/tokens": {
    call: () => ({ path: `/api/workspaces/${team}/tokens`, json: { name: "roles" } }),
    needs: "tokens.write",
    ok: 201,
  },
  "DELETE /api/workspaces/:id/tokens/:tokenId": {
    call: async () => ({
      path: `/api/workspaces/${team}/tokens/${(await inTeam("INSERT INTO api_tokens (workspace_id, user_id, name, token_hash) VALUES (?, ?, 'victim', ?) RETURNING id", crypto.randomUUID()))!.id}`,
    }),
    needs: "tokens.write",
    ok: 204,
  },
  "GET /api/subscriptions/active": { call: () => ({ path: "/api/subscriptions/active" }), needs: null, ok: 200 },
  "POST /api/subscriptions": {
    call: async () => {
      await teamSubscription("basic");
      return { path: "/api/subscriptions", json: { planId: "pro" } };
    },
    needs: "billing.write",
    ok: 200,
  },
  "POST /api/subscriptions/cancel": {
    call: async () => {
      await teamSubscription("pro");
      return { path: "/api/subscriptions/cancel" };
    },
    needs: "billing.write",
    ok: 200,
  },
  "POST /api/subscriptions/reactivate": {
    call: async () => {
      await teamSubscription("pro", { canceled: true });
      return { path: "/api/subscriptions/reactivate" };
    },
    needs: "billing.write",
    ok: 200,
  },
  "DELETE /api/vat": { call: () => ({ path: "/api/vat" }), needs: "billing.write", ok: 204 },
  "GET /api/workspaces/": { call: () => ({ path: "/api/workspaces" }), needs: null, ok: 200 },
  "POST /api/workspaces/": {
    call: () => ({ path: "/api/workspaces", json: { slug: `n${crypto.randomUUID().slice(0, 8)}`, name: "New" } }),
    needs: null,
    ok: 201,
  },
  "GET /api/workspaces/:id": { call: () => ({ path: `/api/workspaces/${team}` }), needs: null, ok: 200 },
  "GET /api/workspaces/:id/audit": {
    call: () => ({ path: `/api/workspaces/${team}/audit` }),
    needs: "audit.read",
    ok: 200,
  },
  "GET /api/workspaces/:id/audit.csv": {
    call: () => ({ path: `/api/workspaces/${team}/audit.csv` }),
    needs: "audit.read",
    ok: 200,
  },
  "GET /api/workspaces/:id/export": {
    call: () => ({ path: `/api/workspaces/${team}/export` }),
    needs: "workspace.export",
    ok: 200,
  },
  "PATCH /api/workspaces/:id": {
    call: () => ({ path: `/api/workspaces/${team}`, json: { name: "Renamed" } }),
    needs: "workspace.write",
    ok: 200,
  },
  "DELETE /api/workspaces/:id": {
    call: async () => {
      // A team of its own each time, in which every caller but the outsider holds the same role as in `team`.
      const slug = `d${crypto.randomUUID().slice(0, 8)}`;
      const doomed = (await sql("INSERT INTO workspaces (slug, name) VALUES (?, 'Doomed') RETURNING id", slug))!.id;
      for (const role of ROLES)
        await server.sql.run(
          "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)",
          doomed,
          members[role].id,
          role,
        );
      return { path: `/api/workspaces/${doomed}?confirmSlug=${slug}` };
    },
    needs: "workspace.delete",
    ok: 204,
  },
  // Invites and members (docs/decisions/0065). The team is on pro and full (5 members), so an invite is made in a team
  // of its own on enterprise, where every caller but the outsider holds the same role as in `team`.
  "GET /api/workspaces/:id/invites": {
    call: () => ({ path: `/api/workspaces/${team}/invites` }),
    needs: "members.write",
    ok: 200,
  },
  "POST /api/workspaces/:id/invites": {
    call: async () => ({
      path: `/api/workspaces/${await unlimitedTeam()}/invites`,
      json: { email: `i${crypto.randomUUID().slice(0, 8)}@example.com`, role: "member" },
    }),
    needs: "members.write",
    ok: 201,
  },
  "DELETE /api/workspaces/:id/invites/:inviteId": {
    call: async () => {
      const invite = await sql(
        "INSERT INTO workspace_invites (workspace_id, email, role, token_hash, expires_at) VALUES (?, ?, 'member', ?, ?) RETURNING id",
        team,
        `i${crypto.randomUUID().slice(0, 8)}@example.com`,
        crypto.randomUUID(),
        new Date(Date.now() + 86_400_000),
      );
      return { path: `/api/workspaces/${team}/invites/${invite!.id}` };
    },
    needs: "members.write",
    ok: 204,
  },
  "GET /api/workspaces/:id/members": {
    call: () => ({ path: `/api/workspaces/${team}/members` }),
    needs: null,
    ok: 200,
  },
  "PATCH /api/workspaces/:id/members/:userId": {
    call: async () => ({ path: `/api/workspaces/${team}/members/${await teamMember()}`, json: { role: "viewer" } }),
    needs: "members.write",
    ok: 200,
  },
  "DELETE /api/workspaces/:id/members/:userId": {
    call: async () => ({ path: `/api/workspaces/${team}/members/${await teamMember()}` }),
    needs: "members.write",
    ok: 204,
  },
};

/** /api routes that act for the account, not in a workspace (the main matrix covers them), and public ones. */
const ACCOUNT_ROUTES = [
  "GET /api/version",
  "GET /api/openapi.json",
  "GET /api/auth/google",
  "GET /api/auth/google/callback",
  "POST /api/auth/login-link",
  "POST /api/auth/login-link/email",
  "POST /api/invites/:token/accept",
  "GET /api/auth/logout",
  "POST /api/auth/logout",
  "GET /api/auth/user",
  "POST /api/auth/consent",
  "GET /api/account/export",
  "DELETE /api/account",
  "POST /api/reports",
  "GET /api/plans",
  "GET /api/business/info",
  "POST /api/stripe/webhook",
  "POST /api/vat/validate",
];

beforeAll(async () => {
  stripe = startFakeStripe();
  server = await startTestServer({ ...stripe.env, AUTH_RATE_LIMIT: "100000", DNS_SERVERS: "127.0.0.1:9" });
  for (const caller of CALLERS) members[caller] = await seedUser(server.sql, { userSlug: `role-${caller}` });
  team = (await sql("INSERT INTO workspaces (slug, name) VALUES ('role-team', 'Roles') RETURNING id"))!.id;
  for (const role of ROLES)
    await server.sql.run(
      "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)",
      team,
      members[role].id,
      role,
    );
  await teamSubscription("pro");
});
afterAll(async () => {
  await server.close();
  stripe.stop();
});

test("every /api route has a row, or is the account's", () => {
  const api = server.routes.filter((route) => route.split(" ")[1]!.startsWith("/api/"));
  expect(api.filter((route) => !(route in ROUTES) && !ACCOUNT_ROUTES.includes(route))).toEqual([]);
  expect(Object.keys(ROUTES).filter((route) => !server.routes.includes(route))).toEqual([]);
});

test("each role gets what the permissions table gives it, and a member of another workspace a 404", async () => {
  const seen: Record<string, Partial<Record<Caller, number>>> = {};
  const expected: Record<string, Partial<Record<Caller, number>>> = {};
  const auditRows: Record<string, Partial<Record<Caller, number>>> = {};
  const expectedAuditRows: Record<string, Partial<Record<Caller, number>>> = {};
  for (const [route, row] of Object.entries(ROUTES)) {
    const [method, pattern] = route.split(" ") as [string, string];
    for (const caller of CALLERS) {
      const call = await row.call();
      const { token } = await seedSession(server.sql, members[caller].id);
      const headers: Record<string, string> = {
        cookie: `lp_session=${token}`,
        origin: server.url,
        "sec-fetch-site": "same-origin",
      };
      if (call.json !== undefined) headers["content-type"] = "application/json";
      // The workspace is named by the path where the route has it, else by ?workspace=.
      const named = pattern.startsWith("/api/workspaces/:id")
        ? call.path
        : `${call.path}${call.path.includes("?") ? "&" : "?"}workspace=role-team`;
      // Every successful write in a workspace leaves one audit row (src/auth/guards.ts), whoever makes it.
      const audits = method !== "GET" ? await auditCount() : undefined;
      const response = await fetch(`${server.url}${named}`, {
        method,
        headers,
        body: call.json === undefined ? undefined : JSON.stringify(call.json),
        redirect: "manual",
      });
      await response.arrayBuffer();
      (seen[route] ??= {})[caller] = response.status;
      if (audits !== undefined) (auditRows[route] ??= {})[caller] = (await auditCount()) - audits;
      (expected[route] ??= {})[caller] =
        caller === "outsider" ? 404 : row.needs === null || may(caller, row.needs) ? row.ok : 403;
      if (audits !== undefined)
        (expectedAuditRows[route] ??= {})[caller] =
          response.status < 300 && !NOT_A_WORKSPACE_WRITE.includes(route) ? 1 : 0;
    }
  }
  expect(seen).toEqual(expected);
  expect(auditRows).toEqual(expectedAuditRows);
});
