// Workspace settings, Webhooks: where events about the links go, how to check their signatures, and the endpoints
// (an island; a role without webhooks.write sees them as text).
import { PLAN_WITHOUT_WEBHOOKS } from "../webhooks/model.ts";
import type { WebhookEndpointJson } from "../webhooks/wire.ts";
import { Webhooks } from "./islands.ts";

/** `allowed`: the viewer's plan has webhooks; without them the page says so instead of offering a form the API refuses. */
export function WebhooksPage({
  endpoints,
  allowed,
  manage,
}: {
  endpoints: WebhookEndpointJson[];
  allowed: boolean;
  manage: boolean;
}) {
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" className="text-lg font-semibold">
        Webhooks
      </h2>
      <p className="mt-2 text-sm text-gray-600">
        LinkPrev posts signed events about your links to your URL (Standard Webhooks): check the{" "}
        <code>webhook-signature</code> header with the endpoint's secret and any Standard Webhooks library, and
        deduplicate on <code>webhook-id</code>. Failed deliveries are retried for about a day. Pause an endpoint to hold
        its deliveries: its events wait, not lost, and are sent when you resume it. See{" "}
        <a className="underline" href="/docs/api/webhooks">
          the API reference
        </a>
        .
      </p>
      {allowed && manage ? (
        <div className="mt-6">
          <Webhooks endpoints={endpoints} />
        </div>
      ) : allowed ? (
        <ul className="mt-6 divide-y divide-gray-100">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="py-2 text-sm">
              <span className="font-medium break-all">{endpoint.url}</span>
              {endpoint.paused && <span className="text-gray-700"> · paused</span>}
            </li>
          ))}
          {endpoints.length === 0 && <li className="py-2 text-sm text-gray-600">No endpoints yet.</li>}
        </ul>
      ) : (
        <p className="mt-6 text-gray-700">
          {PLAN_WITHOUT_WEBHOOKS}{" "}
          <a href="/pricing" className="text-indigo-700 underline">
            See the plans
          </a>
          .
        </p>
      )}
    </section>
  );
}
