// A test server with billing on, against the fake Stripe (real SDK, real HTTP, signed webhooks) and the fake VIES,
// selling from Portugal; for the billing tests.
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { startFakeVies, type FakeVies } from "../fakes/vies.ts";
import { startTestServer, type TestServer } from "./server.ts";

export type BillingServer = { server: TestServer; stripe: FakeStripe; vies: FakeVies; close(): Promise<void> };

/** The fakes, then the server on them with `env` on top; close() stops all three. */
export async function startBillingServer(env: Record<string, string> = {}): Promise<BillingServer> {
  const stripe = startFakeStripe();
  const vies = startFakeVies();
  const server = await startTestServer({
    ...stripe.env,
    VIES_URL: vies.url,
    AUTH_RATE_LIMIT: "10000",
    BUSINESS_COUNTRY: "PT",
    ...env,
  });
  return {
    server,
    stripe,
    vies,
    async close() {
      await server.close();
      stripe.stop();
      vies.stop();
    },
  };
}
