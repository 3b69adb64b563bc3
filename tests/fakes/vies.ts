import { serveOnLoopback } from "./loopback.ts";

// A fake VIES: the EU's REST API for checking VAT numbers (POST /check-vat-number).
export type FakeVies = {
  url: string;
  requests: Array<{ countryCode: string; vatNumber: string }>;
  mode: "up" | "down" | "slow";
  stop: () => void;
};

/** Numbers VIES knows, as "<country><number>" → company name. */
const REGISTERED: Record<string, string> = {
  DE123456789: "Beispiel GmbH",
  EL094259216: "Elliniki Etaireia AE",
  FR40303265045: "Exemple SARL",
};

export function startFakeVies(): FakeVies {
  const fake: FakeVies = { url: "", requests: [], mode: "up", stop: () => loopback.stop() };
  const loopback = serveOnLoopback(async (request) => {
    const url = new URL(request.url);
    // Test control for browser tests, which run in another process: up, down or slow.
    if (url.pathname === "/__test/mode" && request.method === "POST") {
      fake.mode = (await request.text()) as FakeVies["mode"];
      return new Response(null, { status: 204 });
    }
    if (url.pathname !== "/check-vat-number" || request.method !== "POST")
      return new Response("not found", { status: 404 });
    if (fake.mode === "down")
      return Response.json({ actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE" }] }, { status: 500 });
    if (fake.mode === "slow") await Bun.sleep(2000);
    const { countryCode, vatNumber } = (await request.json()) as { countryCode: string; vatNumber: string };
    fake.requests.push({ countryCode, vatNumber });
    const name = REGISTERED[`${countryCode}${vatNumber}`];
    return Response.json({
      countryCode,
      vatNumber,
      requestDate: new Date().toISOString(),
      valid: name !== undefined,
      requestIdentifier: "",
      name: name ?? "---",
      address: name ? "Somewhere 1, EU" : "---",
    });
  });
  fake.url = loopback.url;
  return fake;
}
