// An app worker: the Elysia app (pages, API, webhooks, sign-in) with its own database connections, answering
// the requests the request thread hands it (src/app-workers.ts).
import { createApp } from "./app.ts";
import { clientAddressOf, type FromWorker, type ToWorker, type WorkerRequest } from "./app-workers.ts";
import type { Config } from "./config.ts";
import { createServices, type Services } from "./services.ts";
import { openPlatform } from "./db/platform.ts";
import { handleNotingFacts, REQUEST_ID_HEADER } from "./observability/request-facts.ts";

declare const self: Worker;

const post = (message: FromWorker, transfer: Transferable[] = []) => self.postMessage(message, transfer);

let app: ReturnType<typeof createApp> | null = null;
let ctx: Services | null = null;
let inFlight = 0;
let onIdle: (() => void) | null = null;
let nextHitId = 1;
const hitCounts = new Map<number, { resolve: (count: number) => void; reject: (error: Error) => void }>();

async function start(config: Config) {
  // Changes go to the request thread's link cache before this worker answers, and the rate-limit counts are
  // the request thread's, so that every worker counts against one limit.
  const platform = await openPlatform(config, {
    changes: (own) => ({
      announceLinkChange: async (key) => {
        post({ type: "link-changed", key });
        await own.announceLinkChange(key);
      },
      subscribeLinkChanges: own.subscribeLinkChanges,
    }),
    hits: () => ({
      countHit: (key, windowStart) =>
        new Promise<number>((resolve, reject) => {
          const id = nextHitId++;
          hitCounts.set(id, { resolve, reject });
          post({ type: "hit", id, key, windowStart });
        }),
    }),
  });
  ctx = createServices(config, platform, clientAddressOf, {
    stored: (name, bytes) => {
      const copy = bytes.slice().buffer;
      post({ type: "upload-changed", name, bytes: copy }, [copy]);
    },
    removed: (name) => post({ type: "upload-changed", name, bytes: null }),
  });
  app = createApp(ctx);
}

async function answer({ id, method, url, headers, body }: WorkerRequest) {
  inFlight++;
  try {
    const response = await handleNotingFacts(app!, new Request(url, { method, headers, body }));
    const bytes = method === "HEAD" || response.body === null ? null : await response.arrayBuffer();
    // Set-Cookie stays one header per cookie: Headers iteration joins nothing but it.
    const out: [string, string][] = [];
    for (const [name, value] of response.headers) if (name !== "set-cookie") out.push([name, value]);
    for (const cookie of response.headers.getSetCookie()) out.push(["set-cookie", cookie]);
    post({ type: "response", response: { id, status: response.status, headers: out, body: bytes } }, bytes ? [bytes] : []);
  } catch (error) {
    // The app answers its own errors; this is a failure around it (e.g. reading the body). Never leave a client waiting.
    ctx!.log.error("request failed", error, new Headers(headers).get(REQUEST_ID_HEADER) ?? undefined);
    const body = new TextEncoder().encode(JSON.stringify({ message: "Something went wrong on our side. Please try again." })).buffer as ArrayBuffer;
    post({ type: "response", response: { id, status: 500, headers: [["content-type", "application/json"]], body } }, [body]);
  } finally {
    inFlight--;
    if (inFlight === 0) onIdle?.();
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  switch (message.type) {
    case "start":
      start(message.config).then(
        () => post({ type: "ready" }),
        (error) => post({ type: "failed", error: error instanceof Error ? error.message : String(error) }),
      );
      break;
    case "request":
      void answer(message.request);
      break;
    case "hit-count": {
      const waiting = hitCounts.get(message.id);
      hitCounts.delete(message.id);
      // A count that could not be taken fails the request (a 500), rather than letting it through uncounted.
      if ("error" in message) waiting?.reject(new Error(`rate limit count failed: ${message.error}`));
      else waiting?.resolve(message.count);
      break;
    }
    case "close":
      void (async () => {
        if (inFlight > 0) await new Promise<void>((resolve) => (onIdle = resolve));
        // Re-scrapes asked for by the last saves store their outcome before the connections close.
        await ctx?.facebook?.settled();
        ctx?.images.close();
        await ctx?.database.close();
        post({ type: "closed" });
      })();
      break;
  }
};
