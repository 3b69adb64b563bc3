// @linkprev/sdk against a live server (docs/decisions/0061): its committed types are what the served OpenAPI
// document generates (so a route changed without `bun scripts/sdk-types.ts` fails here), and every documented
// operation is called through it at least once, answering a status its document declares. With api-docs.test.ts
// (every served /api route is documented), a route added without an OpenAPI entry, or without a call here, fails.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createClient, LinkPrevError, ok, type LinkPrevClient } from "../../packages/sdk/src/index.ts";
import { SDK_TYPES_FILE, sdkTypes } from "../../scripts/sdk-types.ts";
import { makePng } from "../helpers/images.ts";
import {
  BILLING_ON,
  seedApiToken,
  seedLink,
  seedSubscription,
  seedUser,
  startTestServer,
  type TestServer,
} from "../helpers/server.ts";

type Operation = { operationId: string; responses: Record<string, unknown> };
type Document = { paths: Record<string, Record<string, Operation>> };

let server: TestServer;
let document: Document;
let client: LinkPrevClient;
let token: string;
let userId: number;
/** What each call through the SDK met: `METHOD /path/{template}` → the statuses answered. */
const met = new Map<string, Set<number>>();

/** A client for `bearer` whose calls are recorded; redirects are answers, not followed. */
function recordingClient(bearer: string): LinkPrevClient {
  const sdk = createClient({
    baseUrl: server.url,
    token: bearer,
    fetch: (request) => fetch(request, { redirect: "manual" }),
  });
  // Added after the SDK's own, so it sees each answer before a refusal is thrown.
  sdk.use({
    onResponse({ request, response, schemaPath }) {
      const key = `${request.method} ${schemaPath}`;
      (met.get(key) ?? met.set(key, new Set()).get(key)!).add(response.status);
      return undefined;
    },
  });
  return sdk;
}

/** The call's status: what it answered, or the refusal it threw. */
async function status(call: Promise<{ response: Response }>): Promise<number> {
  try {
    return (await call).response.status;
  } catch (error) {
    if (error instanceof LinkPrevError) return error.status;
    throw error;
  }
}

beforeAll(async () => {
  // Billing on (a Stripe key that no call reaches: this machine has no way out), so the billing routes answer as in
  // production; a pro plan for custom domains.
  server = await startTestServer({ ...BILLING_ON, FETCH_ALLOW_PRIVATE: "127.0.0.1/32" });
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
  const user = await seedUser(server.sql, { userSlug: "sdk" });
  userId = user.id;
  await seedSubscription(server.sql, user.id, "pro");
  token = (await seedApiToken(server.sql, user.id, "sdk")).token;
  client = recordingClient(token);
});
afterAll(() => server.close());

test("the committed SDK types are what the served OpenAPI document generates (else: bun scripts/sdk-types.ts)", async () => {
  expect(readFileSync(SDK_TYPES_FILE, "utf8")).toBe(await sdkTypes(document));
});

test("a refusal throws a LinkPrevError with the server's words, status and field", async () => {
  const refusal = await client
    .POST("/api/links", { body: { title: "", description: "d", targetUrl: "https://example.com/" } })
    .catch((error: unknown) => error);
  expect(refusal).toBeInstanceOf(LinkPrevError);
  expect(refusal).toMatchObject({ status: 400, field: "title", message: expect.stringContaining("Title") });
});

test("every documented operation is called through the SDK and answers a status its document declares", async () => {
  const c = client;
  const linkId = await seedLink(server.sql, userId, { linkSlug: "sdk-seeded" });
  const created = await ok(
    c.POST("/api/links", {
      body: {
        title: "Made by the SDK",
        description: "A card",
        targetUrl: "https://example.com/sdk",
        customLinkSlug: "sdk-made",
      },
    }),
  );
  expect(created.linkSlug).toBe("sdk-made");
  const id = { id: created.id };
  const endpoint = await ok(
    c.POST("/api/webhooks", { body: { url: "http://127.0.0.1:9/hooks", events: ["link.created"] } }),
  );
  const hook = { id: endpoint.id };
  const delivery = await ok(c.POST("/api/webhooks/{id}/test", { params: { path: hook } }));
  const domain = await ok(c.POST("/api/domains", { body: { hostname: "links.sdk.test" } }));
  const newToken = await ok(c.POST("/api/tokens", { body: { name: "second" } }));
  const workspace = {
    id: (await server.sql.get<{ id: number }>("SELECT id FROM workspaces WHERE personal_user_id = ?", userId))!.id,
  };
  const workspaceToken = await ok(
    c.POST("/api/workspaces/{id}/tokens", { params: { path: workspace }, body: { name: "third" } }),
  );
  const invite = await ok(
    c.POST("/api/workspaces/{id}/invites", {
      params: { path: workspace },
      body: { email: "sdk@example.com", role: "viewer" },
    }),
  );
  const team = await ok(c.POST("/api/workspaces", { body: { slug: "sdk-team", name: "SDK team" } }));
  const member = await seedUser(server.sql);
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'member')",
    workspace.id,
    member.id,
  );

  // One call (at least) per operation; a refusal counts when the document declares it (no Stripe, no Google here).
  // Pages (sign-in and sign-out, for browsers) are read as text.
  const calls: Record<string, () => Promise<unknown>> = {
    listLinks: () => status(c.GET("/api/links", { params: { query: { limit: 1, sort: "newest" } } })),
    createLink: async () => created,
    getLink: () => status(c.GET("/api/links/by-slug/{linkSlug}", { params: { path: { linkSlug: "sdk-made" } } })),
    updateLink: () =>
      status(
        c.PUT("/api/links/by-slug/{linkSlug}", {
          params: { path: { linkSlug: "sdk-made" } },
          body: { title: "Renamed by the SDK", description: "A card", targetUrl: "https://example.com/sdk" },
        }),
      ),
    checkSlugAvailability: () =>
      status(c.GET("/api/links/check-slug-availability", { params: { query: { slug: "free-one" } } })),
    listDeletedLinks: () => status(c.GET("/api/links/deleted")),
    exportLinksCsv: () => status(c.GET("/api/links/export.csv", { parseAs: "text" })),
    lintLink: () =>
      status(
        c.POST("/api/links/lint", {
          body: { title: "A title", description: "A card", targetUrl: "https://example.com/" },
        }),
      ),
    pageMetadata: () => status(c.POST("/api/links/metadata", { body: { url: "http://127.0.0.1:9/" } })),
    linkStats: () => status(c.GET("/api/links/stats")),
    linkPlatforms: () => status(c.GET("/api/links/{id}/platforms", { params: { path: id } })),
    linkFetches: () => status(c.GET("/api/links/{id}/fetches", { params: { path: id, query: { limit: 5 } } })),
    linkQrCode: () =>
      status(c.GET("/api/links/{id}/qr", { params: { path: id, query: { format: "png" } }, parseAs: "arrayBuffer" })),
    linkViews: () => status(c.GET("/api/links/{id}/views", { params: { path: id, query: { days: 3 } } })),
    createLinkVersion: () => status(c.POST("/api/links/{id}/versions", { params: { path: id } })),
    dropOldAddress: () =>
      status(c.DELETE("/api/links/{id}/old-addresses/{addressId}", { params: { path: { ...id, addressId: 999999 } } })),
    deleteLink: () => status(c.DELETE("/api/links/{id}", { params: { path: { id: linkId } } })),
    getQrStyle: () => status(c.GET("/api/qr-style")),
    setQrStyle: () => status(c.PUT("/api/qr-style", { body: { shape: "dots", finder: "rounded" } })),
    uploadQrLogo: () => {
      const form = new FormData();
      form.append("logo", new File([makePng(64, 64)], "logo.png", { type: "image/png" }));
      // openapi-fetch sends a FormData as it is (cli/client/http.ts multipart).
      return status(c.POST("/api/qr-style/logo", { body: form as never }));
    },
    removeQrLogo: () => status(c.DELETE("/api/qr-style/logo")),
    listDomains: () => status(c.GET("/api/domains")),
    listWorkspaces: () => status(c.GET("/api/workspaces")),
    createWorkspace: async () => team,
    getWorkspace: () => status(c.GET("/api/workspaces/{id}", { params: { path: { id: team.id } } })),
    renameWorkspace: () =>
      status(
        c.PATCH("/api/workspaces/{id}", { params: { path: { id: team.id } }, body: { name: "Renamed by the SDK" } }),
      ),
    deleteWorkspace: () =>
      status(
        c.DELETE("/api/workspaces/{id}", {
          params: { path: { id: team.id } },
          body: { confirmSlug: team.slug },
        }),
      ),
    exportWorkspace: () => status(c.GET("/api/workspaces/{id}/export", { params: { path: workspace } })),
    listInvites: () => status(c.GET("/api/workspaces/{id}/invites", { params: { path: workspace } })),
    createInvite: async () => invite,
    revokeInvite: () =>
      status(
        c.DELETE("/api/workspaces/{id}/invites/{inviteId}", {
          params: { path: { ...workspace, inviteId: invite.id } },
        }),
      ),
    acceptInvite: () => status(c.POST("/api/invites/{token}/accept", { params: { path: { token: "not-an-invite" } } })),
    listMembers: () => status(c.GET("/api/workspaces/{id}/members", { params: { path: workspace } })),
    listAuditEvents: () =>
      status(c.GET("/api/workspaces/{id}/audit", { params: { path: workspace, query: { limit: 5 } } })),
    exportAuditCsv: () =>
      status(c.GET("/api/workspaces/{id}/audit.csv", { params: { path: workspace }, parseAs: "text" })),
    changeMemberRole: () =>
      status(
        c.PATCH("/api/workspaces/{id}/members/{userId}", {
          params: { path: { ...workspace, userId: member.id } },
          body: { role: "viewer" },
        }),
      ),
    removeMember: () =>
      status(
        c.DELETE("/api/workspaces/{id}/members/{userId}", { params: { path: { ...workspace, userId: member.id } } }),
      ),
    addDomain: async () => domain,
    getDomain: () => status(c.GET("/api/domains/{id}", { params: { path: { id: domain.id } } })),
    updateDomain: () =>
      status(c.PATCH("/api/domains/{id}", { params: { path: { id: domain.id } }, body: { rootUrl: null } })),
    verifyDomain: () => status(c.POST("/api/domains/{id}/verify", { params: { path: { id: domain.id } } })),
    removeDomain: () => status(c.DELETE("/api/domains/{id}", { params: { path: { id: domain.id } } })),
    listWebhooks: () => status(c.GET("/api/webhooks")),
    addWebhook: async () => endpoint,
    updateWebhook: () => status(c.PATCH("/api/webhooks/{id}", { params: { path: hook }, body: { paused: true } })),
    testWebhook: async () => delivery,
    listWebhookDeliveries: () => status(c.GET("/api/webhooks/{id}/deliveries", { params: { path: hook } })),
    resendWebhookDelivery: () =>
      status(
        c.POST("/api/webhooks/{id}/deliveries/{deliveryId}/resend", {
          params: { path: { ...hook, deliveryId: delivery.id } },
        }),
      ),
    rotateWebhookSecret: () => status(c.POST("/api/webhooks/{id}/rotate-secret", { params: { path: hook } })),
    removeWebhook: () => status(c.DELETE("/api/webhooks/{id}", { params: { path: hook } })),
    listTokens: () => status(c.GET("/api/tokens")),
    createToken: async () => newToken,
    revokeToken: () => status(c.DELETE("/api/tokens/{tokenId}", { params: { path: { tokenId: newToken.id } } })),
    listWorkspaceTokens: () => status(c.GET("/api/workspaces/{id}/tokens", { params: { path: workspace } })),
    createWorkspaceToken: async () => workspaceToken,
    revokeWorkspaceToken: () =>
      status(
        c.DELETE("/api/workspaces/{id}/tokens/{tokenId}", {
          params: { path: { ...workspace, tokenId: workspaceToken.id } },
        }),
      ),
    currentUser: () => status(c.GET("/api/auth/user")),
    recordConsent: () => status(c.POST("/api/auth/consent", { body: { termsAccepted: true, privacyAccepted: true } })),
    useLoginLink: () => status(c.POST("/api/auth/login-link", { body: { token: "not-a-login-token" } })),
    emailLoginLink: () =>
      status(c.POST("/api/auth/login-link/email", { body: { email: "sdk@example.com" }, parseAs: "text" })),
    googleSignIn: () => status(c.GET("/api/auth/google", { parseAs: "text" })),
    googleCallback: () => status(c.GET("/api/auth/google/callback", { parseAs: "text" })),
    signOut: () => status(c.GET("/api/auth/logout", { parseAs: "text" })),
    signOutConfirmed: () => status(c.POST("/api/auth/logout", { parseAs: "text" })),
    businessInfo: () => status(c.GET("/api/business/info")),
    listPlans: () => status(c.GET("/api/plans")),
    subscribe: () => status(c.POST("/api/subscriptions", { body: { planId: "pro" } })),
    activeSubscription: () => status(c.GET("/api/subscriptions/active")),
    cancelSubscription: () => status(c.POST("/api/subscriptions/cancel")),
    reactivateSubscription: () => status(c.POST("/api/subscriptions/reactivate")),
    validateVat: () => status(c.POST("/api/vat/validate", { body: { countryCode: "DE", vatNumber: "DE123" } })),
    removeVat: () => status(c.DELETE("/api/vat")),
    stripeWebhook: () => status(c.POST("/api/stripe/webhook", { body: {} as never })),
    reportLink: () =>
      status(c.POST("/api/reports", { body: { address: `${server.url}/go/sdk/sdk-made`, reason: "phishing" } })),
    version: () => status(c.GET("/api/version")),
    openApiDocument: () => status(c.GET("/api/openapi.json")),
    exportAccount: () => status(c.GET("/api/account/export", { parseAs: "text" })),
    // Last: the account is gone after it.
    deleteAccount: () => status(c.DELETE("/api/account", { body: { confirmEmail: "not-mine@example.com" } } as never)),
  };

  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );
  // The table covers the document exactly: a new documented route needs its call here.
  expect(Object.keys(calls).sort()).toEqual(operations.map(({ operation }) => operation.operationId).sort());
  for (const call of Object.values(calls)) await call();
  const declared = (operation: Operation, answered: number) =>
    String(answered) in operation.responses || `${String(answered)[0]}XX` in operation.responses;
  const answers = operations.map(({ key, operation }) => ({ key, operation, statuses: [...(met.get(key) ?? [])] }));
  expect(answers.filter(({ statuses }) => statuses.length === 0).map(({ key }) => key)).toEqual([]);
  const undeclared = answers.flatMap(({ key, operation, statuses }) =>
    statuses.filter((answered) => !declared(operation, answered)).map((answered) => `${key} answered ${answered}`),
  );
  expect(undeclared).toEqual([]);
  // Every other call succeeded: these are refused by design here (no Google, Stripe or mail server to reach, no
  // sign-in link, no invite, no renamed link, a wrong e-mail to delete the account with, the first call's invalid link).
  const refused = answers.filter(({ statuses }) => statuses.some((answered) => answered >= 400)).map(({ key }) => key);
  expect(refused.sort()).toEqual(
    [
      "GET /api/auth/google/callback",
      "POST /api/auth/login-link",
      "POST /api/auth/login-link/email",
      "POST /api/invites/{token}/accept",
      "POST /api/links",
      "POST /api/links/metadata",
      "DELETE /api/links/{id}/old-addresses/{addressId}",
      "POST /api/subscriptions",
      "POST /api/subscriptions/cancel",
      "POST /api/subscriptions/reactivate",
      "POST /api/stripe/webhook",
      "POST /api/vat/validate",
      "DELETE /api/account",
    ].sort(),
  );
});
