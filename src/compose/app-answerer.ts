// Who answers pages, the API, webhooks and sign-in: the app workers (src/start/app-workers.ts), or, with APP_WORKERS=0,
// the Elysia app built on this thread. The app is built only where it answers; either way the answerer lists the
// routes it serves (RunningServer.routes).
import { AppWorkerPool } from "../start/app-workers.ts";
import type { MovingClock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Change } from "../db/change.ts";
import { AppRequest, handleNotingFacts, type Facts, type Origin } from "../observability/request-facts.ts";
import type { Services } from "../services.ts";

export type AppAnswerer = {
  answer: (request: Request, origin: Origin) => Promise<Facts & { response: Response }>;
  /** "METHOD /path" for each route of the app. */
  routes: string[];
  /** Requests being answered now (0 on this thread: /metrics counts the workers' only). */
  inFlight: () => number;
  /** Lets the workers finish what they hold, then closes their database connections. */
  close: () => Promise<void>;
};

/**
 * `changed`: what a change a worker commits does on this thread (before that worker answers). `clock`: a test's,
 * which the services on this thread already read; the workers are sent its time.
 */
export async function startAppAnswerer(
  config: Config,
  services: Services,
  changed: (change: Change) => void,
  clock: MovingClock | null,
): Promise<AppAnswerer> {
  if (config.appWorkers === 0) {
    // Loaded here only: with app workers this thread never loads the app's modules.
    const { createApp, routeList } = await import("../app.ts");
    const app = createApp(services);
    return {
      answer: (request, origin) => handleNotingFacts(app, new AppRequest(request, undefined, origin)),
      routes: routeList(app),
      inFlight: () => 0,
      close: async () => {},
    };
  }
  const pool = await AppWorkerPool.start(config.appWorkers, config, {
    changed,
    log: services.log,
    drivenBy: clock,
    uploadChanged: (name, bytes) => services.images.learn(name, bytes),
    countHit: services.hits.countHit,
    acquirePixels: (pixels) => services.imageGate.acquire(pixels).catch(() => null),
    safetyCounted: (event) => services.safety.counts.count(event),
    imageWorkCounted: (event) => services.imageWork.count(event),
  });
  return {
    answer: (request, origin) => pool.handle(request, origin),
    routes: pool.routes,
    inFlight: () => pool.inFlight(),
    close: () => pool.close(),
  };
}
