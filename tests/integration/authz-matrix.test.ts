// Who may do what: every route, tried by six callers. A table, easy to read and to extend; a route without a
// row fails the test, so a new route cannot ship without deciding who may call it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { hashSecret } from "../../src/auth/tokens.ts";
import { stylesheet } from "../../src/pages/assets.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { eventually } from "../helpers/eventually.ts";
import { seedLink, seedUser, startTestServer, type TestServer, seedSession, seedApiToken } from "../helpers/server.ts";
import { subscribeInFakeStripe } from "../helpers/subscriptions.ts";

type Actor = "anonymous" | "otherUser" | "expiredSession" | "revokedToken" | "crossSiteCookie" | "owner";
const ACTORS: Actor[] = ["anonymous", "otherUser", "expiredSession", "revokedToken", "crossSiteCookie", "owner"];
type Expect = Record<Actor, number>;
type Call = { path: string; json?: unknown; form?: Record<string, string> };

/** Same status for everyone (public routes). */
const all = (status: number): Expect => ({
  anonymous: status,
  otherUser: status,
  expiredSession: status,
  revokedToken: status,
  crossSiteCookie: status,
  owner: status,
});
/** A signed-in read: the caller's own data. */
const signedInRead = (ok = 200): Expect => ({
  anonymous: 401,
  otherUser: ok,
  expiredSession: 401,
  revokedToken: 401,
  crossSiteCookie: ok,
  owner: ok,
});
/** A signed-in write: cross-site cookie writes are refused. */
const signedInWrite = (ok: number, other = ok): Expect => ({
  anonymous: 401,
  otherUser: other,
  expiredSession: 401,
  revokedToken: 401,
  crossSiteCookie: 403,
  owner: ok,
});
/** The owner's resource: others get 404, never 403. */
const ownerRead = (ok = 200): Expect => ({ ...signedInRead(ok), otherUser: 404 });
const ownerWrite = (ok: number): Expect => ({ ...signedInWrite(ok), otherUser: 404 });
/** A page behind the sign-in (and subscription) guard. */
const guardedPage = (other = 200): Expect => ({
  anonymous: 302,
  otherUser: other,
  expiredSession: 302,
  revokedToken: 302,
  crossSiteCookie: 200,
  owner: 200,
});
/** A write anyone may attempt (no session needed), refused when it comes cross-site. */
const publicWrite = (status: number): Expect => ({ ...all(status), crossSiteCookie: 403 });

let server: TestServer;
let stripe: FakeStripe;
let owner: { id: number; userSlug: string };
let other: { id: number; userSlug: string };

/** A fresh link of the owner's for each call, so that writes never depend on each other. */
const ownerLink = async () => {
  const slug = `l${crypto.randomUUID().slice(0, 8)}`;
  return { slug, id: await seedLink(server.sql, owner.id, { linkSlug: slug }) };
};

/** A fresh link of the owner's with an earlier address (docs/decisions/0047): the address to drop. */
const ownerOldAddress = async () => {
  const link = await ownerLink();
  const row = await server.sql.get<{ id: number }>(
    "INSERT INTO link_old_addresses (user_id, workspace_id, link_id, link_slug) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?) RETURNING id",
    owner.id,
    owner.id,
    link.id,
    `${link.slug}-was`,
  );
  return `/api/links/${link.id}/old-addresses/${row!.id}`;
};

/** A fresh domain of the owner's, written straight to the database (the plan's limit is the API's concern). */
const ownerDomain = async () =>
  (await server.sql.get<{ id: number }>(
    "INSERT INTO domains (user_id, workspace_id, hostname, verification_token) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?) RETURNING id",
    owner.id,
    owner.id,
    `o${crypto.randomUUID().slice(0, 8)}.matrix.test`,
    "linkprev-verify=x",
  ))!.id;

/** A fresh webhook endpoint of the owner's; its deliveries are refused at once (a loopback address not allowed here). */
const ownerEndpoint = async () =>
  (await server.sql.get<{ id: number }>(
    "INSERT INTO webhook_endpoints (user_id, workspace_id, url, events, secret) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'https://127.0.0.1:9/hooks', '[\"link.created\"]', 'whsec_AAAA') RETURNING id",
    owner.id,
    owner.id,
  ))!.id;

/** The owner's personal workspace (on the owner's pro plan: 5 seats): where the owner's invites and members are. */
const ownerPersonalWorkspace = async () =>
  (await server.sql.get<{ id: number }>("SELECT id FROM workspaces WHERE personal_user_id = ?", owner.id))!.id;

/** A fresh pending invite of the owner's workspace, written straight to the database. */
const ownerInvite = async () => {
  const workspaceId = await ownerPersonalWorkspace();
  const row = await server.sql.get<{ id: number }>(
    "INSERT INTO workspace_invites (workspace_id, email, role, token_hash, expires_at) VALUES (?, ?, 'member', ?, ?) RETURNING id",
    workspaceId,
    `i${crypto.randomUUID().slice(0, 8)}@example.com`,
    hashSecret(crypto.randomUUID()),
    new Date(Date.now() + 86_400_000),
  );
  return `/api/workspaces/${workspaceId}/invites/${row!.id}`;
};

/** A fresh member of the owner's workspace. */
const ownerMember = async () => {
  const workspaceId = await ownerPersonalWorkspace();
  const member = await seedUser(server.sql);
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'member')",
    workspaceId,
    member.id,
  );
  return `/api/workspaces/${workspaceId}/members/${member.id}`;
};

/** A fresh team workspace the owner owns (as POST /api/workspaces writes it). */
const ownerWorkspace = async () => {
  const slug = `t${crypto.randomUUID().slice(0, 8)}`;
  const { id } = (await server.sql.get<{ id: number }>(
    "INSERT INTO workspaces (slug, name) VALUES (?, 'Matrix team') RETURNING id",
    slug,
  ))!;
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'owner')",
    id,
    owner.id,
  );
  return id;
};

const subscribe = (userId: number, plan: "basic" | "pro", options: { canceled?: boolean } = {}) =>
  subscribeInFakeStripe(server, stripe, userId, plan, options);

const ROUTES: Record<string, { call: () => Call | Promise<Call>; expect: Expect }> = {
  // Public; fetch's "Bun/…" User-Agent is a script, which is sent on like a person (src/go/visitor-kinds.ts).
  "GET /go/:userSlug/:linkSlug": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}` }),
    expect: all(302),
  },
  "HEAD /go/:userSlug/:linkSlug": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}` }),
    expect: all(302),
  },
  // Version 1 of every link is its plain address; higher ones exist once issued.
  "GET /go/:userSlug/:linkSlug/:version": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}/1` }),
    expect: all(302),
  },
  "HEAD /go/:userSlug/:linkSlug/:version": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}/1` }),
    expect: all(302),
  },
  // The password form's answer (src/go/rule-answer.ts): a link without a password has none to take.
  "POST /go/:userSlug/:linkSlug": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}`, form: { password: "x" } }),
    expect: all(405),
  },
  "POST /go/:userSlug/:linkSlug/:version": {
    call: async () => ({ path: `/go/${owner.userSlug}/${(await ownerLink()).slug}/1`, form: { password: "x" } }),
    expect: all(405),
  },
  "GET /uploads/:name": { call: () => ({ path: "/uploads/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.jpg" }), expect: all(404) },
  "GET /assets/:name": { call: () => ({ path: stylesheet }), expect: all(200) },
  "GET /favicon.ico": { call: () => ({ path: "/favicon.ico" }), expect: all(200) },
  "GET /api/version": { call: () => ({ path: "/api/version" }), expect: all(200) },
  "GET /healthz": { call: () => ({ path: "/healthz" }), expect: all(200) },
  "GET /readyz": { call: () => ({ path: "/readyz" }), expect: all(200) },
  "GET /livez": { call: () => ({ path: "/livez" }), expect: all(200) },
  "GET /api/openapi.json": { call: () => ({ path: "/api/openapi.json" }), expect: all(200) },
  "GET /docs/api": { call: () => ({ path: "/docs/api" }), expect: all(200) },
  "GET /docs/api/:section": { call: () => ({ path: "/docs/api/links" }), expect: all(200) },
  // Signed in already: the dashboard (302), not a second sign-in.
  "GET /api/auth/google": {
    call: () => ({ path: "/api/auth/google" }),
    expect: { ...all(200), otherUser: 302, crossSiteCookie: 302, owner: 302 },
  },
  "GET /api/auth/google/callback": {
    call: () => ({ path: "/api/auth/google/callback?code=x&state=y" }),
    expect: all(404),
  },
  "GET /login/:token": { call: () => ({ path: "/login/sometoken" }), expect: all(200) },
  "POST /api/auth/login-link": {
    call: () => ({ path: "/api/auth/login-link", form: { token: "not-a-real-token" } }),
    expect: publicWrite(400),
  },
  // This server sends no mail (no SMTP_URL): the form's route says so.
  "POST /api/auth/login-link/email": {
    call: () => ({ path: "/api/auth/login-link/email", form: { email: "matrix@example.com" } }),
    expect: publicWrite(404),
  },
  // From another site a signed-in browser is asked first (a page with a button), so it stays signed in.
  "GET /api/auth/logout": { call: () => ({ path: "/api/auth/logout" }), expect: { ...all(302), crossSiteCookie: 200 } },
  "POST /api/auth/logout": { call: () => ({ path: "/api/auth/logout" }), expect: publicWrite(303) },
  "GET /api/auth/user": { call: () => ({ path: "/api/auth/user" }), expect: signedInRead() },
  "POST /api/auth/consent": {
    call: () => ({ path: "/api/auth/consent", json: { termsAccepted: true, privacyAccepted: true } }),
    expect: signedInWrite(200),
  },
  "GET /api/tokens": { call: () => ({ path: "/api/tokens" }), expect: signedInRead() },
  "POST /api/tokens": { call: () => ({ path: "/api/tokens", json: { name: "matrix" } }), expect: signedInWrite(201) },
  "DELETE /api/tokens/:tokenId": {
    call: async () => ({ path: `/api/tokens/${(await seedApiToken(server.sql, owner.id, "victim")).id}` }),
    expect: ownerWrite(204),
  },
  "GET /api/workspaces/:id/tokens": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/tokens` }),
    expect: ownerRead(),
  },
  "POST /api/workspaces/:id/tokens": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/tokens`, json: { name: "matrix" } }),
    expect: ownerWrite(201),
  },
  "DELETE /api/workspaces/:id/tokens/:tokenId": {
    call: async () => ({
      path: `/api/workspaces/${await ownerPersonalWorkspace()}/tokens/${(await seedApiToken(server.sql, owner.id, "victim")).id}`,
    }),
    expect: ownerWrite(204),
  },
  "GET /api/links/": { call: () => ({ path: "/api/links" }), expect: signedInRead() },
  "GET /api/links/deleted": { call: () => ({ path: "/api/links/deleted" }), expect: signedInRead() },
  "GET /api/links/stats": { call: () => ({ path: "/api/links/stats" }), expect: signedInRead() },
  "GET /api/links/check-slug-availability": {
    call: () => ({ path: "/api/links/check-slug-availability?slug=free" }),
    expect: signedInRead(),
  },
  "POST /api/links/": {
    call: () => ({ path: "/api/links", json: { title: "t", description: "d", targetUrl: "https://example.com/" } }),
    expect: signedInWrite(201),
  },
  "POST /api/links/lint": {
    call: () => ({
      path: "/api/links/lint",
      json: { title: "t", description: "d", targetUrl: "https://example.com/" },
    }),
    expect: signedInWrite(200),
  },
  // The matrix server allows no private range: a private address is refused (422) without any network.
  "POST /api/links/metadata": {
    call: () => ({ path: "/api/links/metadata", json: { url: "http://10.0.0.1/" } }),
    expect: signedInWrite(422),
  },
  "GET /api/links/by-slug/:linkSlug": {
    call: async () => ({ path: `/api/links/by-slug/${(await ownerLink()).slug}` }),
    expect: ownerRead(),
  },
  "PUT /api/links/by-slug/:linkSlug": {
    call: async () => ({
      path: `/api/links/by-slug/${(await ownerLink()).slug}`,
      json: { title: "t2", description: "d", targetUrl: "https://example.com/" },
    }),
    expect: ownerWrite(200),
  },
  "GET /api/links/:id/views": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}/views` }),
    expect: ownerRead(),
  },
  "GET /api/links/:id/platforms": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}/platforms` }),
    expect: ownerRead(),
  },
  "GET /api/links/:id/fetches": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}/fetches?limit=5` }),
    expect: ownerRead(),
  },
  "POST /api/links/:id/versions": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}/versions` }),
    expect: ownerWrite(201),
  },
  "GET /api/links/:id/qr": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}/qr?format=svg&size=256` }),
    expect: ownerRead(),
  },
  "GET /api/qr-style/": { call: () => ({ path: "/api/qr-style" }), expect: signedInRead() },
  "PUT /api/qr-style/": {
    call: () => ({ path: "/api/qr-style", json: { shape: "dots" } }),
    expect: signedInWrite(200),
  },
  // A form without a file: refused as such (400) once the caller may write; the upload itself: qr-styles.test.ts.
  "POST /api/qr-style/logo": {
    call: () => ({ path: "/api/qr-style/logo", form: { logo: "not a file" } }),
    expect: signedInWrite(400),
  },
  "DELETE /api/qr-style/logo": { call: () => ({ path: "/api/qr-style/logo" }), expect: signedInWrite(200) },
  "DELETE /api/links/:id/old-addresses/:addressId": {
    call: async () => ({ path: await ownerOldAddress() }),
    expect: ownerWrite(204),
  },
  "DELETE /api/links/:id": {
    call: async () => ({ path: `/api/links/${(await ownerLink()).id}` }),
    expect: ownerWrite(204),
  },
  "GET /api/webhooks/": { call: () => ({ path: "/api/webhooks" }), expect: signedInRead() },
  // A public address over https passes the destination check without DNS; it subscribes to an event never sent here.
  "POST /api/webhooks/": {
    call: () => ({ path: "/api/webhooks", json: { url: "https://93.184.215.14/hooks", events: ["domain.verified"] } }),
    expect: signedInWrite(201),
  },
  "PATCH /api/webhooks/:id": {
    call: async () => ({ path: `/api/webhooks/${await ownerEndpoint()}`, json: { description: "renamed" } }),
    expect: ownerWrite(200),
  },
  "DELETE /api/webhooks/:id": {
    call: async () => ({ path: `/api/webhooks/${await ownerEndpoint()}` }),
    expect: ownerWrite(204),
  },
  "POST /api/webhooks/:id/test": {
    call: async () => ({ path: `/api/webhooks/${await ownerEndpoint()}/test` }),
    expect: ownerWrite(202),
  },
  "POST /api/webhooks/:id/rotate-secret": {
    call: async () => ({ path: `/api/webhooks/${await ownerEndpoint()}/rotate-secret` }),
    expect: ownerWrite(200),
  },
  "GET /api/webhooks/:id/deliveries": {
    call: async () => ({ path: `/api/webhooks/${await ownerEndpoint()}/deliveries` }),
    expect: ownerRead(),
  },
  "POST /api/webhooks/:id/deliveries/:deliveryId/resend": {
    call: async () => {
      const endpointId = await ownerEndpoint();
      const delivery = await server.sql.get<{ id: number }>(
        "INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, status, attempts, next_attempt_at, created_at) VALUES (?, ?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, 'webhook.test', '{}', 'failed', 7, ?, ?) RETURNING id",
        endpointId,
        owner.id,
        owner.id,
        `msg_${crypto.randomUUID()}`,
        Date.now(),
        Date.now(),
      );
      return { path: `/api/webhooks/${endpointId}/deliveries/${delivery!.id}/resend` };
    },
    expect: ownerWrite(202),
  },
  "GET /api/links/export.csv": { call: () => ({ path: "/api/links/export.csv" }), expect: signedInRead() },
  "GET /api/account/export": { call: () => ({ path: "/api/account/export" }), expect: signedInRead() },
  // A confirmation that names no one's account: the checks before it are what this row is about (the account
  // tests delete for real).
  "DELETE /api/account": {
    call: () => ({ path: "/api/account", json: { confirmEmail: "nobody@example.com" } }),
    expect: signedInWrite(400),
  },
  // Anyone may report a link (no account); refused only cross-site with a cookie, like every write.
  "POST /api/reports": {
    call: async () => ({
      path: "/api/reports",
      json: { address: `${owner.userSlug}/${(await ownerLink()).slug}`, reason: "spam" },
    }),
    expect: publicWrite(201),
  },
  "GET /api/plans": { call: () => ({ path: "/api/plans" }), expect: all(200) },
  "GET /api/business/info": { call: () => ({ path: "/api/business/info" }), expect: all(200) },
  "GET /api/subscriptions/active": { call: () => ({ path: "/api/subscriptions/active" }), expect: signedInRead() },
  "POST /api/subscriptions": {
    call: async () => {
      await subscribe(owner.id, "basic");
      await subscribe(other.id, "basic");
      return { path: "/api/subscriptions", json: { planId: "pro" } };
    },
    expect: signedInWrite(200),
  },
  "POST /api/subscriptions/cancel": {
    call: async () => {
      await subscribe(owner.id, "pro");
      await subscribe(other.id, "pro");
      return { path: "/api/subscriptions/cancel" };
    },
    expect: signedInWrite(200),
  },
  "POST /api/subscriptions/reactivate": {
    call: async () => {
      await subscribe(owner.id, "pro", { canceled: true });
      await subscribe(other.id, "pro", { canceled: true });
      return { path: "/api/subscriptions/reactivate" };
    },
    expect: signedInWrite(200),
  },
  "POST /api/stripe/webhook": {
    call: () => ({ path: "/api/stripe/webhook", json: { id: "evt_forged", type: "customer.subscription.deleted" } }),
    expect: publicWrite(400),
  },
  "POST /api/vat/validate": {
    call: () => ({ path: "/api/vat/validate", json: { countryCode: "US", vatNumber: "1" } }),
    expect: publicWrite(400),
  },
  "DELETE /api/vat": { call: () => ({ path: "/api/vat" }), expect: signedInWrite(204) },
  // Pro allows one domain: each call starts from none.
  "POST /api/domains/": {
    call: async () => {
      await server.sql.run("DELETE FROM domains WHERE user_id IN (?, ?)", owner.id, other.id);
      return { path: "/api/domains", json: { hostname: `m${crypto.randomUUID().slice(0, 8)}.matrix.test` } };
    },
    expect: signedInWrite(201),
  },
  "GET /api/domains/": { call: () => ({ path: "/api/domains" }), expect: signedInRead() },
  "GET /api/workspaces/": { call: () => ({ path: "/api/workspaces" }), expect: signedInRead() },
  "POST /api/workspaces/": {
    call: () => ({ path: "/api/workspaces", json: { slug: `n${crypto.randomUUID().slice(0, 8)}`, name: "New" } }),
    expect: signedInWrite(201),
  },
  "GET /api/workspaces/:id": {
    call: async () => ({ path: `/api/workspaces/${await ownerWorkspace()}` }),
    expect: ownerRead(),
  },
  "GET /api/workspaces/:id/audit": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/audit` }),
    expect: ownerRead(),
  },
  "GET /api/workspaces/:id/audit.csv": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/audit.csv` }),
    expect: ownerRead(),
  },
  "GET /api/workspaces/:id/export": {
    call: async () => ({ path: `/api/workspaces/${await ownerWorkspace()}/export` }),
    expect: ownerRead(),
  },
  "PATCH /api/workspaces/:id": {
    call: async () => ({ path: `/api/workspaces/${await ownerWorkspace()}`, json: { name: "Renamed" } }),
    expect: ownerWrite(200),
  },
  "DELETE /api/workspaces/:id": {
    call: async () => {
      const id = await ownerWorkspace();
      const { slug } = (await server.sql.get<{ slug: string }>("SELECT slug FROM workspaces WHERE id = ?", id))!;
      return { path: `/api/workspaces/${id}?confirmSlug=${slug}` };
    },
    expect: ownerWrite(204),
  },
  "GET /api/domains/:id": { call: async () => ({ path: `/api/domains/${await ownerDomain()}` }), expect: ownerRead() },
  // No DNS server answers on the matrix server's loopback port: the check stores a transient failure.
  "POST /api/domains/:id/verify": {
    call: async () => ({ path: `/api/domains/${await ownerDomain()}/verify` }),
    expect: ownerWrite(200),
  },
  "PATCH /api/domains/:id": {
    call: async () => ({ path: `/api/domains/${await ownerDomain()}`, json: { rootUrl: "https://example.com/" } }),
    expect: ownerWrite(200),
  },
  "DELETE /api/domains/:id": {
    call: async () => ({ path: `/api/domains/${await ownerDomain()}` }),
    expect: ownerWrite(204),
  },
  // Invites and members of the owner's workspace: another user is no member there (404, as for no workspace).
  "GET /api/workspaces/:id/invites": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/invites` }),
    expect: ownerRead(),
  },
  "POST /api/workspaces/:id/invites": {
    call: async () => ({
      path: `/api/workspaces/${await ownerPersonalWorkspace()}/invites`,
      json: { email: `i${crypto.randomUUID().slice(0, 8)}@example.com`, role: "member" },
    }),
    expect: ownerWrite(201),
  },
  "DELETE /api/workspaces/:id/invites/:inviteId": {
    call: async () => ({ path: await ownerInvite() }),
    expect: ownerWrite(204),
  },
  "GET /api/workspaces/:id/members": {
    call: async () => ({ path: `/api/workspaces/${await ownerPersonalWorkspace()}/members` }),
    expect: ownerRead(),
  },
  "PATCH /api/workspaces/:id/members/:userId": {
    call: async () => ({ path: await ownerMember(), json: { role: "viewer" } }),
    expect: ownerWrite(200),
  },
  "DELETE /api/workspaces/:id/members/:userId": {
    call: async () => ({ path: await ownerMember() }),
    expect: ownerWrite(204),
  },
  // No such invite: signed in, 404; the page's form signed out goes back to the page (which says how to sign in).
  "POST /api/invites/:token/accept": {
    call: () => ({ path: "/api/invites/not-an-invite/accept" }),
    expect: signedInWrite(404),
  },
  "GET /invites/:token": { call: () => ({ path: "/invites/not-an-invite" }), expect: all(404) },
  "POST /invites/:token": {
    call: () => ({ path: "/invites/not-an-invite", form: {} }),
    expect: {
      anonymous: 303,
      otherUser: 404,
      expiredSession: 303,
      revokedToken: 303,
      crossSiteCookie: 403,
      owner: 404,
    },
  },
  "GET /payment-success": { call: () => ({ path: "/payment-success" }), expect: guardedPage() },
  "GET /": { call: () => ({ path: "/" }), expect: all(200) },
  "GET /pricing": { call: () => ({ path: "/pricing" }), expect: all(200) },
  "GET /about": { call: () => ({ path: "/about" }), expect: all(200) },
  "GET /privacy": { call: () => ({ path: "/privacy" }), expect: all(200) },
  "GET /account-deleted": { call: () => ({ path: "/account-deleted" }), expect: all(200) },
  "GET /terms": { call: () => ({ path: "/terms" }), expect: all(200) },
  "GET /contact": { call: () => ({ path: "/contact" }), expect: all(200) },
  "GET /admin": { call: () => ({ path: "/admin" }), expect: guardedPage() },
  "GET /admin/link/new": { call: () => ({ path: "/admin/link/new" }), expect: guardedPage() },
  // The old places of domains and webhooks: a redirect to workspace settings, whose guard then answers.
  "GET /admin/domains": { call: () => ({ path: "/admin/domains" }), expect: all(301) },
  "GET /admin/webhooks": { call: () => ({ path: "/admin/webhooks" }), expect: all(301) },
  "GET /admin/workspace": { call: () => ({ path: "/admin/workspace" }), expect: guardedPage() },
  "GET /admin/workspace/members": { call: () => ({ path: "/admin/workspace/members" }), expect: guardedPage() },
  "GET /admin/workspace/tokens": { call: () => ({ path: "/admin/workspace/tokens" }), expect: guardedPage() },
  "GET /admin/workspace/domains": { call: () => ({ path: "/admin/workspace/domains" }), expect: guardedPage() },
  "GET /admin/workspace/webhooks": { call: () => ({ path: "/admin/workspace/webhooks" }), expect: guardedPage() },
  "GET /admin/workspace/billing": { call: () => ({ path: "/admin/workspace/billing" }), expect: guardedPage() },
  "GET /admin/workspace/audit": { call: () => ({ path: "/admin/workspace/audit" }), expect: guardedPage() },
  "GET /account": { call: () => ({ path: "/account" }), expect: guardedPage() },
  "GET /account/data": { call: () => ({ path: "/account/data" }), expect: guardedPage() },
  "GET /account/delete": { call: () => ({ path: "/account/delete" }), expect: guardedPage() },
  "GET /admin/link/edit/:linkSlug": {
    call: async () => ({ path: `/admin/link/edit/${(await ownerLink()).slug}` }),
    expect: guardedPage(404),
  },
  "GET /admin/link/stats/:linkSlug": {
    call: async () => ({ path: `/admin/link/stats/${(await ownerLink()).slug}` }),
    expect: guardedPage(404),
  },
  "GET /admin/link/stats/:linkSlug/csv": {
    call: async () => ({ path: `/admin/link/stats/${(await ownerLink()).slug}/csv?range=7` }),
    expect: guardedPage(404),
  },
};

beforeAll(async () => {
  stripe = startFakeStripe();
  server = await startTestServer({
    ...stripe.env,
    AUTH_RATE_LIMIT: "100000",
    DNS_SERVERS: "127.0.0.1:9",
    TLS_ASK_PORT: "0",
  });
  owner = await seedUser(server.sql, { userSlug: "owner" });
  other = await seedUser(server.sql, { userSlug: "other" });
  await subscribe(owner.id, "pro");
  await subscribe(other.id, "pro");
});
afterAll(async () => {
  await server.close();
  stripe.stop();
});

/** The credentials each caller brings, made fresh for every request. */
async function credentials(actor: Actor): Promise<Record<string, string>> {
  const cookie = async (userId: number) => `lp_session=${(await seedSession(server.sql, userId)).token}`;
  const sameSite = { origin: server.url, "sec-fetch-site": "same-origin" };
  switch (actor) {
    case "anonymous":
      return {};
    case "otherUser":
      return { cookie: await cookie(other.id), ...sameSite };
    case "owner":
      return { cookie: await cookie(owner.id), ...sameSite };
    case "crossSiteCookie":
      return { cookie: await cookie(owner.id), origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    case "expiredSession": {
      const { token } = await seedSession(server.sql, owner.id);
      await server.sql.run("UPDATE sessions SET expire = ? WHERE sid = ?", new Date(Date.now() - 1), hashSecret(token));
      return { cookie: `lp_session=${token}`, ...sameSite };
    }
    case "revokedToken": {
      const { id, token } = await seedApiToken(server.sql, owner.id, "revoked");
      await server.sql.run("DELETE FROM api_tokens WHERE id = ?", id);
      return { authorization: `Bearer ${token}` };
    }
  }
}

test("every route has a row", () => {
  expect(server.routes.filter((route) => !(route in ROUTES))).toEqual([]);
  expect(Object.keys(ROUTES).filter((route) => !server.routes.includes(route))).toEqual([]);
});

test("each caller gets the expected status on every route", async () => {
  const seen: Record<string, Partial<Expect>> = {};
  for (const [route, row] of Object.entries(ROUTES)) {
    const method = route.split(" ")[0]!;
    for (const actor of ACTORS) {
      const call = await row.call();
      const headers: Record<string, string> = { ...(await credentials(actor)) };
      let body: BodyInit | undefined;
      if (call.json !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(call.json);
      } else if (call.form) body = new URLSearchParams(call.form);
      const response = await fetch(`${server.url}${call.path}`, { method, headers, body, redirect: "manual" });
      await response.arrayBuffer();
      (seen[route] ??= {})[actor] = response.status;
    }
  }
  const expected = Object.fromEntries(Object.entries(ROUTES).map(([route, row]) => [route, row.expect]));
  expect(seen).toEqual(expected);
});

// The ask listener (TLS_ASK_PORT, Caddy's on-demand TLS check) has no users: what decides is the domain asked
// about, whatever credentials come along. A route added there without a row fails "every ask-listener route".
type AskCase = "verified" | "failing" | "pending" | "invalid" | "suspendedOwner" | "unknown";
const ASK_ANSWERS: Record<AskCase, number> = {
  verified: 200,
  failing: 200,
  pending: 403,
  invalid: 403,
  suspendedOwner: 403,
  unknown: 403,
};
const ASK_ROUTES: Record<string, Record<AskCase, number>> = {
  "GET /tls/ask": ASK_ANSWERS,
  "HEAD /tls/ask": ASK_ANSWERS,
};

/** One domain per case: the owner's in each status, a verified one of a suspended account (on pro), none at all. */
async function askDomains(): Promise<Record<AskCase, string>> {
  const add = (userId: number, hostname: string, status: string) =>
    server.sql.run(
      "INSERT INTO domains (user_id, workspace_id, hostname, status, verification_token) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, 'linkprev-verify=x')",
      userId,
      userId,
      hostname,
      status,
    );
  for (const status of ["verified", "failing", "pending", "invalid"])
    await add(owner.id, `${status}.ask-matrix.test`, status);
  const suspended = await seedUser(server.sql, { userSlug: "suspended" });
  await subscribe(suspended.id, "pro");
  await add(suspended.id, "suspended.ask-matrix.test", "verified");
  await server.sql.run("UPDATE users SET suspended_at = ? WHERE id = ?", new Date(), suspended.id);
  server.changed({ kind: "domains" });
  await eventually(async () =>
    expect((await fetch(`${server.askUrl}/tls/ask?domain=verified.ask-matrix.test`)).status).toBe(200),
  );
  return {
    verified: "verified.ask-matrix.test",
    failing: "failing.ask-matrix.test",
    pending: "pending.ask-matrix.test",
    invalid: "invalid.ask-matrix.test",
    suspendedOwner: "suspended.ask-matrix.test",
    unknown: "nobody.ask-matrix.test",
  };
}

test("every ask-listener route has a row", () => {
  expect(server.askRoutes.filter((route) => !(route in ASK_ROUTES))).toEqual([]);
  expect(Object.keys(ASK_ROUTES).filter((route) => !server.askRoutes.includes(route))).toEqual([]);
});

test("the ask listener answers by the domain's state, whoever calls", async () => {
  const domains = await askDomains();
  const seen: Record<string, Partial<Record<AskCase, number>>> = {};
  for (const route of Object.keys(ASK_ROUTES)) {
    const [method, path] = route.split(" ") as [string, string];
    for (const [which, hostname] of Object.entries(domains) as Array<[AskCase, string]>) {
      const statuses = new Set<number>();
      for (const actor of ACTORS)
        statuses.add(
          (await fetch(`${server.askUrl}${path}?domain=${hostname}`, { method, headers: await credentials(actor) }))
            .status,
        );
      (seen[route] ??= {})[which] = statuses.size === 1 ? [...statuses][0]! : -1;
    }
  }
  expect(seen).toEqual(ASK_ROUTES);
});
