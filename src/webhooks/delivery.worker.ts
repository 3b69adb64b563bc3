// The delivery Worker: the outbox's deliverer (deliverer.ts) with its own database connections and fetcher, so
// that claiming, signing, posting and recording never run on the request thread that answers /go. It polls on
// its own timer; a server given a test's clock drives it instead, one `deliverDue` per poll with that clock's time
// (delivery-worker.ts), since the test's clock cannot cross threads.
import { systemClock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import { openPlatform } from "../db/platform.ts";
import { isBillingEnabled, safeFetcher } from "../compose/every-thread.ts";
import { createLogger } from "../observability/log.ts";
import type { Database } from "../db/ports.ts";
import { serveParent } from "../threads/rpc.ts";
import { WebhookDeliverer, type DeliveryOutcomes } from "./deliverer.ts";
import { webhookDeps } from "./deps.ts";

declare const self: Worker;

export type DeliveryWorkerProtocol = {
  worker: {
    /** Opens the connections; `polling`: deliver on the worker's own timer and clock (false: only when driven). */
    start: { payload: { config: Config; polling: boolean }; reply: void };
    /**
     * Starts sending what is due at `now` (the driving clock's time, which the worker's clock then reads), without
     * waiting for the receivers; the number of deliveries started.
     */
    deliverDue: { payload: { now: number }; reply: number };
    /** Lets the attempts under way finish and closes the connections. */
    close: { payload: void; reply: void };
  };
  parent: {};
  notices: {
    /** A batch of attempts was recorded, with these outcomes. */
    recorded: DeliveryOutcomes;
  };
};

let deliverer: WebhookDeliverer | null = null;
let database: Database | null = null;
/** The driving clock's last time; null while the worker keeps its own (real) time. */
let drivenNow: number | null = null;

const parent = serveParent<DeliveryWorkerProtocol>(self, {
  start: async ({ config, polling }) => {
    const platform = await openPlatform(config);
    database = platform.database;
    const clock = { now: () => drivenNow ?? systemClock.now() };
    const built = { fetcher: safeFetcher(config), billingEnabled: isBillingEnabled(config) };
    deliverer = new WebhookDeliverer(
      webhookDeps(config, platform, clock, createLogger(config.logFormat), built),
      (outcomes) => parent.notify("recorded", outcomes),
    );
    if (polling) deliverer.start();
  },
  deliverDue: ({ now }) => {
    drivenNow = now;
    return deliverer!.deliverDue();
  },
  close: async () => {
    await deliverer?.stop();
    await database?.close();
  },
});
