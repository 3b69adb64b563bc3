// The server the browser tests drive: LinkPrev on a fresh data directory, with fake Google, Stripe and VIES.
// Started by playwright.config.ts; E2E_PORT chooses the app's port, fakes take free ports.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { startServer } from "../../src/server.ts";
import { startFakeGoogle } from "../fakes/google.ts";
import { startFakeStripe } from "../fakes/stripe.ts";
import { startFakeVies } from "../fakes/vies.ts";

const port = Number(process.env.E2E_PORT ?? 3100);
const google = startFakeGoogle();
const stripe = startFakeStripe();
const vies = startFakeVies();
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
    ...google.env,
    ...stripe.env,
  },
);
const server = await startServer(config);
// The tests read where the fakes are from /__e2e.
Bun.serve({
  port: port + 1,
  hostname: "127.0.0.1",
  fetch: () => Response.json({ google: google.url, stripe: stripe.url, vies: vies.url, dataDir: config.dataDir }),
});
console.log(`e2e server on ${server.url}`);
