// The server the browser tests drive: LinkPrev on a fresh data directory, with fake Google, Stripe, VIES and
// Facebook Graph API, and a small local "web" for auto-fill (FETCH_ALLOW_PRIVATE lets the fetcher reach loopback).
// Started by playwright.config.ts; E2E_PORT chooses the app's port and E2E_INFO_PORT where the tests ask where the
// fakes are (both free ports the config found); the fakes take free ports of their own.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/config.ts";
import { startServer } from "../../src/server.ts";
import { loginLinkFor, ownerLoginLink } from "../../src/admin/access.ts";
import { startFakeFacebookGraph } from "../fakes/facebook-graph.ts";
import { startFakeGoogle } from "../fakes/google.ts";
import { startFakeStripe } from "../fakes/stripe.ts";
import { startFakeVies } from "../fakes/vies.ts";
import { startFakeWeb } from "../fakes/web.ts";

const port = Number(process.env.E2E_PORT ?? 3100);
const infoPort = Number(process.env.E2E_INFO_PORT ?? port + 1);
const google = startFakeGoogle();
const stripe = startFakeStripe();
const vies = startFakeVies();
const facebook = startFakeFacebookGraph();
const web = startFakeWeb();
const config = loadConfig(
  {},
  {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), "linkprev-e2e-")),
    RELEASE: "e2e",
    AUTH_RATE_LIMIT: "100000",
    VIES_URL: vies.url,
    VIES_TIMEOUT_MS: "1000",
    FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
    // Behind a "proxy": a test may send X-Forwarded-For to fetch from a crawler's network (crawler-verification.spec.ts);
    // without the header the socket's address is the client's, as before.
    TRUST_PROXY: "true",
    // The journeys make many links from fresh accounts; the abuse brakes are tested in tests/integration/safety-operators.test.ts.
    NEW_ACCOUNT_LINKS: "0",
    TARGET_HOST_LINKS_PER_HOUR: "0",
    ...facebook.env,
    ...google.env,
    ...stripe.env,
  },
);
// A second, bare instance, as a newcomer's `npm start` runs: no Google, no Stripe (its screens must say so). A
// test signs in there with a one-time link the info server makes (GET /bare-login-link for a new account,
// /bare-owner-login-link for the instance's owner, its first account).
const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
const barePort = probe.port!;
await probe.stop();
const bareUrl = `http://127.0.0.1:${barePort}`;
const bare = await startServer(
  loadConfig(
    {},
    {
      PORT: String(barePort),
      PUBLIC_URL: bareUrl,
      DATA_DIR: mkdtempSync(join(tmpdir(), "linkprev-e2e-bare-")),
      RELEASE: "e2e",
      AUTH_RATE_LIMIT: "100000",
      APP_WORKERS: "1",
    },
  ),
);
// The tests read where the fakes are from here (tests/e2e/helpers.ts `fakes`); up before the app, whose /healthz
// tells Playwright that the tests may start.
Bun.serve({
  port: infoPort,
  hostname: "127.0.0.1",
  fetch: async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/bare-owner-login-link") return new Response(await ownerLoginLink(bare.ctx.database, bareUrl));
    if (path === "/bare-login-link")
      return new Response(
        await loginLinkFor(
          bare.ctx.database,
          bareUrl,
          `bare${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`,
          "Bea Bare",
        ),
      );
    return Response.json({
      google: google.url,
      stripe: stripe.url,
      vies: vies.url,
      web: web.url,
      facebook: facebook.url,
      dataDir: config.dataDir,
      bare: bareUrl,
    });
  },
});
const server = await startServer(config);
console.log(`e2e server on ${server.url}`);
