// A webhook receiver as a customer would run one: a real HTTP server on loopback that checks every delivery with
// the reference Standard Webhooks library (npm `standardwebhooks`), not with LinkPrev's own code.
import { Webhook } from "standardwebhooks";

export type Received = {
  id: string;
  timestamp: number;
  headers: Record<string, string>;
  body: string;
  /** The verified body, or null with the verifier's complaint in `error`. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  error: string | null;
  status: number;
};

export type Receiver = {
  url: string;
  received: Received[];
  /** The secret deliveries are verified with (set once the endpoint is created; null: none checked). */
  secret: string | null;
  /** Answers the n-th delivery (0-based) with this status; 200 by default. */
  answer: (n: number, id: string) => number | Promise<number>;
  /** Verified deliveries with a 2xx answer: what a receiver acknowledged. */
  acknowledged(): Received[];
  verifyWith(secret: string, received: Received): unknown;
  close(): Promise<void>;
};

export function startReceiver(): Receiver {
  const receiver: Receiver = {
    url: "",
    received: [],
    secret: null,
    answer: () => 200,
    acknowledged: () => receiver.received.filter((r) => r.payload !== null && r.status >= 200 && r.status < 300),
    verifyWith: (secret, r) => new Webhook(secret).verify(r.body, r.headers),
    close: async () => {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers.entries());
      let payload: Received["payload"] = null;
      let error: string | null = null;
      try {
        payload = new Webhook(receiver.secret ?? "whsec_AAAA").verify(body, headers) as Received["payload"];
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const entry: Received = {
        id: headers["webhook-id"] ?? "",
        timestamp: Number(headers["webhook-timestamp"]),
        headers,
        body,
        payload,
        error,
        status: 0,
      };
      const n = receiver.received.push(entry) - 1;
      entry.status = await receiver.answer(n, entry.id);
      return new Response(entry.status < 300 ? "ok" : "not now", { status: entry.status });
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}/hooks`;
  return receiver;
}
