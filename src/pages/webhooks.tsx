// /admin/webhooks: where events about your links go, how to check their signatures, and the endpoints (an island).
import { PLAN_WITHOUT_WEBHOOKS } from "../webhooks/model.ts";
import type { WebhookEndpointJson } from "../webhooks/wire.ts";
import { Webhooks } from "./islands.ts";

/** `allowed`: the viewer's plan has webhooks; without them the page says so instead of offering a form the API refuses. */
export function WebhooksPage({ endpoints, allowed }: { endpoints: WebhookEndpointJson[]; allowed: boolean }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-bold">Webhooks</h1>
      <p className="mt-2 text-sm text-gray-600">
        LinkPrev posts signed events about your links to your URL (Standard Webhooks): check the{" "}
        <code>webhook-signature</code> header with the endpoint's secret and any Standard Webhooks library, and
        deduplicate on <code>webhook-id</code>. Failed deliveries are retried for about a day. Pause an endpoint to hold
        its deliveries: its events wait, not lost, and are sent when you resume it. See{" "}
        <a className="underline" href="/docs/api">
          the API reference
        </a>
        .
      </p>
      {allowed ? (
        <div className="mt-6">
          <Webhooks endpoints={endpoints} />
        </div>
      ) : (
        <p className="mt-6 text-gray-700">
          {PLAN_WITHOUT_WEBHOOKS}{" "}
          <a href="/pricing" className="text-indigo-700 underline">
            See the plans
          </a>
          .
        </p>
      )}
    </div>
  );
}
