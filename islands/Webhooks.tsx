// The Webhooks page's one island: add an endpoint (its secret shown once), send a test event, rotate the secret,
// re-enable or remove an endpoint, and read its latest deliveries with "Resend".
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { shortDate } from "../src/client/format.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryJson, type WebhookEndpointJson, type WebhookEndpointWithSecretJson } from "../src/webhooks/wire.ts";

const failed = (error: unknown) => toast({ title: "Error", description: errorMessage(error), variant: "destructive" });

function Deliveries({ endpointId }: { endpointId: number }) {
  const [deliveries, setDeliveries] = useState<WebhookDeliveryJson[] | null>(null);
  const load = () => api<WebhookDeliveryJson[]>(`/api/webhooks/${endpointId}/deliveries`).then(setDeliveries, failed);
  const resend = (id: number) =>
    api(`/api/webhooks/${endpointId}/deliveries/${id}/resend`, { method: "POST" }).then(() => {
      toast({ title: "Queued again" });
      return load();
    }, failed);
  if (!deliveries) {
    return <button type="button" className={buttonClass.secondary} onClick={load}>Show deliveries</button>;
  }
  return (
    <div className="mt-2 overflow-x-auto">
      <button type="button" className={buttonClass.secondary} onClick={load}>Refresh</button>
      <table className="mt-2 w-full text-left text-xs" aria-label="Deliveries">
        <thead>
          <tr><th>Event</th><th>Type</th><th>Status</th><th>Attempt</th><th>Code</th><th>Time</th><th>Answer</th><th>Next attempt</th><th /></tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} className="border-t border-gray-100 align-top">
              <td><code>{d.eventId}</code></td>
              <td>{d.type}</td>
              <td>{d.status}</td>
              <td>{d.attempt}</td>
              <td>{d.statusCode ?? "–"}</td>
              <td>{d.durationMs === null ? "–" : `${d.durationMs} ms`}</td>
              <td className="max-w-xs truncate" title={d.response ?? ""}>{d.response ?? ""}</td>
              <td>{d.nextAttemptAt ? shortDate(d.nextAttemptAt) : "–"}</td>
              <td><button type="button" className={buttonClass.secondary} onClick={() => resend(d.id)}>Resend</button></td>
            </tr>
          ))}
          {deliveries.length === 0 && <tr><td colSpan={9} className="py-2 text-gray-500">No deliveries yet.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}

export default function Webhooks({ endpoints: initial }: { endpoints: WebhookEndpointJson[] }) {
  const [endpoints, setEndpoints] = useState(initial);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["link.created"]);
  const [secret, setSecret] = useState<{ endpointId: number; secret: string } | null>(null);

  const replace = (endpoint: WebhookEndpointJson) => setEndpoints((list) => list.map((e) => (e.id === endpoint.id ? endpoint : e)));
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const endpoint = await api<WebhookEndpointWithSecretJson>("/api/webhooks", { method: "POST", json: { url, events, description } });
      setEndpoints((list) => [...list, endpoint]);
      setSecret({ endpointId: endpoint.id, secret: endpoint.secret });
      setUrl("");
      setDescription("");
    } catch (error) {
      failed(error);
    }
  };
  const rotate = (id: number) =>
    api<WebhookEndpointWithSecretJson>(`/api/webhooks/${id}/rotate-secret`, { method: "POST" }).then((endpoint) => {
      replace(endpoint);
      setSecret({ endpointId: id, secret: endpoint.secret });
    }, failed);
  const test = (id: number) => api(`/api/webhooks/${id}/test`, { method: "POST" }).then(() => toast({ title: "Test event queued" }), failed);
  const enable = (id: number) => api<WebhookEndpointJson>(`/api/webhooks/${id}`, { method: "PATCH", json: { enabled: true } }).then(replace, failed);
  const remove = (id: number) =>
    api(`/api/webhooks/${id}`, { method: "DELETE" }).then(() => setEndpoints((list) => list.filter((e) => e.id !== id)), failed);
  const toggle = (type: string) => setEvents((list) => (list.includes(type) ? list.filter((t) => t !== type) : [...list, type]));

  return (
    <div className="space-y-6">
      <form onSubmit={add} className="rounded-lg border border-gray-200 p-6" aria-labelledby="add-endpoint">
        <h2 id="add-endpoint" className="text-lg font-semibold">Add an endpoint</h2>
        <label className="mt-3 block text-sm font-medium" htmlFor="webhook-url">URL (https)</label>
        <input id="webhook-url" type="url" required value={url} onChange={(e) => setUrl((e.target as HTMLInputElement).value)} placeholder="https://hooks.example.com/linkprev" className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm" />
        <label className="mt-3 block text-sm font-medium" htmlFor="webhook-description">Description</label>
        <input id="webhook-description" value={description} maxLength={200} onChange={(e) => setDescription((e.target as HTMLInputElement).value)} className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm" />
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">Events</legend>
          <div className="mt-1 flex flex-wrap gap-3 text-sm">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-1">
                <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
                {type}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className={`${buttonClass.primary} mt-4`} disabled={!url.trim() || events.length === 0}>Add endpoint</button>
      </form>
      {secret && (
        <div className="rounded-md border border-green-300 bg-green-50 p-3 text-sm" role="status">
          <p className="font-semibold">Copy the signing secret now: it is shown only once.</p>
          <code data-testid="webhook-secret" className="mt-1 block break-all">{secret.secret}</code>
        </div>
      )}
      <ul className="space-y-4" aria-label="Endpoints">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id} className="rounded-lg border border-gray-200 p-4 text-sm">
            <p className="font-medium break-all">{endpoint.url}</p>
            <p className="text-gray-600">{`${endpoint.description ? `${endpoint.description} · ` : ""}${endpoint.events.join(", ")} · added ${shortDate(endpoint.createdAt)}`}</p>
            {!endpoint.enabled && <p className="mt-1 text-red-700">{endpoint.disabledReason ?? "Disabled"}</p>}
            {endpoint.previousSecretValidUntil && <p className="mt-1 text-gray-600">{`The previous secret still signs until ${shortDate(endpoint.previousSecretValidUntil)}.`}</p>}
            <div className="mt-2 flex flex-wrap gap-2">
              <button type="button" className={buttonClass.secondary} onClick={() => test(endpoint.id)}>Send test event</button>
              <button type="button" className={buttonClass.secondary} onClick={() => rotate(endpoint.id)}>Rotate secret</button>
              {!endpoint.enabled && <button type="button" className={buttonClass.secondary} onClick={() => enable(endpoint.id)}>Re-enable</button>}
              <button type="button" className={buttonClass.danger} onClick={() => remove(endpoint.id)} aria-label={`Remove ${endpoint.url}`}>Remove</button>
            </div>
            <Deliveries endpointId={endpoint.id} />
          </li>
        ))}
        {endpoints.length === 0 && <li className="text-sm text-gray-500">No endpoints yet.</li>}
      </ul>
    </div>
  );
}
