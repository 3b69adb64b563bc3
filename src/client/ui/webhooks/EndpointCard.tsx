// One webhook endpoint on the Webhooks page: where it posts, its state (active, paused, disabled) and events, and
// what its owner can do: send a test event, change its events, pause or resume it, rotate its secret, remove it,
// and read its deliveries.
import { useState } from "react";
import type { WebhookEndpointJson, WebhookEndpointWithSecretJson } from "../../../webhooks/wire.ts";
import { api } from "../../api.ts";
import { shortDate } from "../../format.ts";
import { toast } from "../../toast.ts";
import { buttonClass } from "../Dialog.tsx";
import { Deliveries } from "./Deliveries.tsx";
import { EventChoices } from "./EventChoices.tsx";
import { failed } from "./failed.ts";

type Props = {
  endpoint: WebhookEndpointJson;
  /** The endpoint as the server now has it. */
  changed: (endpoint: WebhookEndpointJson) => void;
  /** A new secret to show (after a rotation). */
  rotated: (endpoint: WebhookEndpointWithSecretJson) => void;
  removed: (id: number) => void;
};

function StateBadge({ endpoint }: { endpoint: WebhookEndpointJson }) {
  const [word, style] = !endpoint.enabled
    ? ["Disabled", "bg-red-100 text-red-800"]
    : endpoint.paused
      ? ["Paused", "bg-amber-100 text-amber-800"]
      : ["Active", "bg-green-100 text-green-800"];
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${style}`} data-testid="endpoint-state">
      {word}
    </span>
  );
}

export function EndpointCard({ endpoint, changed, rotated, removed }: Props) {
  const [editing, setEditing] = useState<string[] | null>(null);
  const patch = (json: object) =>
    api<WebhookEndpointJson>(`/api/webhooks/${endpoint.id}`, { method: "PATCH", json }).then(changed);
  const saveEvents = () => patch({ events: editing }).then(() => setEditing(null), failed);
  const pause = (paused: boolean) =>
    patch({ paused }).then(
      () =>
        toast({ title: paused ? "Paused: events wait until you resume" : "Resumed: waiting events are being sent" }),
      failed,
    );
  const test = () =>
    api(`/api/webhooks/${endpoint.id}/test`, { method: "POST" }).then(
      () => toast({ title: "Test event queued" }),
      failed,
    );
  const rotate = () =>
    api<WebhookEndpointWithSecretJson>(`/api/webhooks/${endpoint.id}/rotate-secret`, { method: "POST" }).then(
      rotated,
      failed,
    );
  const remove = () =>
    api(`/api/webhooks/${endpoint.id}`, { method: "DELETE" }).then(() => removed(endpoint.id), failed);

  return (
    <li className="space-y-4 rounded-lg border border-gray-200 bg-white p-5 text-sm shadow-sm">
      <div className="space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="break-all font-mono font-medium">{endpoint.url}</p>
          <StateBadge endpoint={endpoint} />
        </div>
        {endpoint.description && <p className="text-gray-700">{endpoint.description}</p>}
        <p className="text-gray-600">{`Events: ${endpoint.events.join(", ")} · added ${shortDate(endpoint.createdAt)}`}</p>
        {!endpoint.enabled && <p className="text-red-700">{endpoint.disabledReason ?? "Disabled"}</p>}
        {endpoint.enabled && endpoint.paused && (
          <p className="text-amber-800">Paused: new events wait here, unsent, until you resume it.</p>
        )}
        {endpoint.previousSecretValidUntil && (
          <p className="text-gray-600">{`The previous secret still signs until ${shortDate(endpoint.previousSecretValidUntil)}.`}</p>
        )}
      </div>
      {editing ? (
        <div className="space-y-3 rounded-md bg-gray-50 p-4">
          <EventChoices legend="Events sent to this endpoint" chosen={editing} onChange={setEditing} />
          <div className="flex gap-2">
            <button type="button" className={buttonClass.primary} onClick={saveEvents} disabled={editing.length === 0}>
              Save events
            </button>
            <button type="button" className={buttonClass.secondary} onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass.secondary} onClick={test}>
          Send test event
        </button>
        {!editing && (
          <button type="button" className={buttonClass.secondary} onClick={() => setEditing([...endpoint.events])}>
            Change events
          </button>
        )}
        {endpoint.enabled && (
          <button type="button" className={buttonClass.secondary} onClick={() => pause(!endpoint.paused)}>
            {endpoint.paused ? "Resume" : "Pause"}
          </button>
        )}
        {!endpoint.enabled && (
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => patch({ enabled: true }).catch(failed)}
          >
            Re-enable
          </button>
        )}
        <button type="button" className={buttonClass.secondary} onClick={rotate}>
          Rotate secret
        </button>
        <button type="button" className={buttonClass.danger} onClick={remove} aria-label={`Remove ${endpoint.url}`}>
          Remove
        </button>
      </div>
      <Deliveries endpointId={endpoint.id} />
    </li>
  );
}
