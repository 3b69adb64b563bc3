// The Webhooks page's one island: add an endpoint (its secret shown once, with a Copy button), and the endpoints
// as cards (src/client/ui/webhooks/): test events, their events changed, paused or resumed, secrets rotated,
// re-enabled or removed, and their latest deliveries with "Resend".
import { useState } from "react";
import { api } from "../src/client/api.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { ShownOnce } from "../src/client/ui/ShownOnce.tsx";
import { EndpointCard } from "../src/client/ui/webhooks/EndpointCard.tsx";
import { EventChoices } from "../src/client/ui/webhooks/EventChoices.tsx";
import { failed } from "../src/client/ui/webhooks/failed.ts";
import type { WebhookEndpointJson, WebhookEndpointWithSecretJson } from "../src/webhooks/wire.ts";

const input = "mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm";

export default function Webhooks({ endpoints: initial }: { endpoints: WebhookEndpointJson[] }) {
  const [endpoints, setEndpoints] = useState(initial);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>(["link.created"]);
  const [secret, setSecret] = useState<string | null>(null);

  const replace = (endpoint: WebhookEndpointJson) =>
    setEndpoints((list) => list.map((e) => (e.id === endpoint.id ? endpoint : e)));
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const endpoint = await api<WebhookEndpointWithSecretJson>("/api/webhooks", {
        method: "POST",
        json: { url, events, description },
      });
      setEndpoints((list) => [...list, endpoint]);
      setSecret(endpoint.secret);
      setUrl("");
      setDescription("");
    } catch (error) {
      failed(error);
    }
  };
  const rotated = (endpoint: WebhookEndpointWithSecretJson) => {
    replace(endpoint);
    setSecret(endpoint.secret);
  };

  return (
    <div className="space-y-8">
      <form
        onSubmit={add}
        className="space-y-4 rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
        aria-labelledby="add-endpoint"
      >
        <h2 id="add-endpoint" className="text-lg font-semibold">
          Add an endpoint
        </h2>
        <div>
          <label className="block text-sm font-medium" htmlFor="webhook-url">
            URL (https)
          </label>
          <input
            id="webhook-url"
            type="url"
            required
            value={url}
            onChange={(e) => setUrl((e.target as HTMLInputElement).value)}
            placeholder="https://hooks.example.com/linkprev"
            className={input}
          />
        </div>
        <div>
          <label className="block text-sm font-medium" htmlFor="webhook-description">
            Description
          </label>
          <input
            id="webhook-description"
            value={description}
            maxLength={200}
            onChange={(e) => setDescription((e.target as HTMLInputElement).value)}
            className={input}
          />
        </div>
        <EventChoices legend="Events" chosen={events} onChange={setEvents} />
        <button type="submit" className={buttonClass.primary} disabled={!url.trim() || events.length === 0}>
          Add endpoint
        </button>
      </form>
      {secret && <ShownOnce what="secret" value={secret} testId="webhook-secret" />}
      <ul className="space-y-6" aria-label="Endpoints">
        {endpoints.map((endpoint) => (
          <EndpointCard
            key={endpoint.id}
            endpoint={endpoint}
            changed={replace}
            rotated={rotated}
            removed={(id) => setEndpoints((list) => list.filter((e) => e.id !== id))}
          />
        ))}
        {endpoints.length === 0 && <li className="text-sm text-gray-500">No endpoints yet.</li>}
      </ul>
    </div>
  );
}
