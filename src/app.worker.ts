// An app worker: the Elysia app (pages, API, webhooks, sign-in) with its own database connections, answering
// the requests the request thread hands it (src/start/app-workers.ts).
import { createApp, routeList } from "./app.ts";
import type { AppWorkerProtocol, WorkerRequest, WorkerResponse } from "./start/app-workers.ts";
import { drivenClock, systemClock } from "./clock.ts";
import type { Config } from "./config/config.ts";
import { closeServices, createServices, type Services } from "./services.ts";
import { openPlatform } from "./db/platform.ts";
import { AppRequest, handleNotingFacts, UNMATCHED_ROUTE } from "./observability/request-facts.ts";
import { serveParent, transfer } from "./threads/rpc.ts";
import { lowerThreadPriority } from "./threads/thread-priority.ts";
import { unavailable } from "./http/errors.ts";
import { QUEUE_FULL_MESSAGE, type PixelGate } from "./links/images/pixel-budget.ts";

declare const self: Worker;

let app: ReturnType<typeof createApp> | null = null;
let ctx: Services | null = null;
let inFlight = 0;
let onIdle: (() => void) | null = null;
/** With a test's clock: this worker's clock, moved by the request thread (src/start/app-workers.ts). */
let driven: ReturnType<typeof drivenClock> | null = null;

/** The image budget is the process's, kept by the request thread: every app worker's images share it. */
const pixelGate: PixelGate = {
  acquire: async (pixels) => {
    const lease = await parent.call("acquirePixels", { pixels });
    if (lease === null) throw unavailable(QUEUE_FULL_MESSAGE);
    return { release: () => parent.notify("pixels-released", { lease }) };
  },
};

async function start({ config, drivenAt }: { config: Config; drivenAt: number | null }) {
  // Before the first await: a move sent after the start is handled only once this has run.
  if (drivenAt !== null) driven = drivenClock(drivenAt);
  // Changes go to the request thread's link cache before this worker answers, and the rate-limit counts are
  // the request thread's, so that every worker counts against one limit.
  const platform = await openPlatform(config, {
    changes: (own) => ({
      announceChange: async (change) => {
        parent.notify("changed", { change });
        await own.announceChange(change);
      },
      subscribeChanges: own.subscribeChanges,
    }),
    hits: () => ({
      // A count that could not be taken fails the request (a 500), rather than letting it through uncounted.
      countHit: (key, windowStart, windowMs) =>
        parent.call("countHit", { key, windowStart, windowMs }).catch((error: Error) => {
          throw new Error(`rate limit count failed: ${error.message}`);
        }),
    }),
  });
  ctx = createServices(
    config,
    platform,
    {
      stored: (name, bytes) => {
        const copy = bytes.slice().buffer;
        parent.notify("upload-changed", { name, bytes: copy }, [copy]);
      },
      removed: (name) => parent.notify("upload-changed", { name, bytes: null }),
    },
    driven ?? systemClock,
    pixelGate,
    {
      safety: (event) => parent.notify("safety-counted", event),
      imageWork: (event) => parent.notify("image-work-counted", { event }),
    },
  );
  const priority = lowerThreadPriority(config.appWorkerNice);
  if (!priority.ok) ctx.log.warn(`App worker priority left as it is: ${priority.why}`);
  app = createApp(ctx);
  return routeList(app);
}

async function answer({ clientAddress, requestId, method, url, headers, body }: WorkerRequest) {
  inFlight++;
  try {
    const { response, route, userId } = await handleNotingFacts(
      app!,
      new AppRequest(url, { method, headers, body }, { clientAddress, requestId }),
    );
    const bytes = method === "HEAD" || response.body === null ? null : await response.arrayBuffer();
    // Set-Cookie stays one header per cookie: Headers iteration joins nothing but it.
    const out: [string, string][] = [];
    for (const [name, value] of response.headers) if (name !== "set-cookie") out.push([name, value]);
    for (const cookie of response.headers.getSetCookie()) out.push(["set-cookie", cookie]);
    return transfer<WorkerResponse>(
      { status: response.status, headers: out, body: bytes, route, userId },
      bytes ? [bytes] : [],
    );
  } catch (error) {
    // The app answers its own errors; this is a failure around it (e.g. reading the body). Never leave a client waiting.
    ctx!.log.error("request failed", error, requestId);
    const body = new TextEncoder().encode(
      JSON.stringify({ message: "Something went wrong on our side. Please try again." }),
    ).buffer as ArrayBuffer;
    return transfer<WorkerResponse>(
      { status: 500, headers: [["content-type", "application/json"]], body, route: UNMATCHED_ROUTE, userId: undefined },
      [body],
    );
  } finally {
    inFlight--;
    if (inFlight === 0) onIdle?.();
  }
}

const parent = serveParent<AppWorkerProtocol>(self, {
  start,
  request: answer,
  moveClock: ({ now }) => driven?.moveTo(now),
  close: async () => {
    if (inFlight > 0) await new Promise<void>((resolve) => (onIdle = resolve));
    if (ctx) await closeServices(ctx);
  },
});
