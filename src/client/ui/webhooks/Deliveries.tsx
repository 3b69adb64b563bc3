// An endpoint's latest deliveries, as a table a person can read: what was sent, whether it arrived, what the
// receiver answered, and when the next attempt is; each can be sent again ("Resend").
import { useState } from "react";
import type { WebhookDeliveryJson } from "../../../webhooks/wire.ts";
import { api } from "../../api.ts";
import { toast } from "../../toast.ts";
import { buttonClass } from "../Dialog.tsx";
import { failed } from "./failed.ts";

const STATUS_STYLE: Record<WebhookDeliveryJson["status"], string> = {
  delivered: "bg-green-100 text-green-800",
  pending: "bg-amber-100 text-amber-800",
  failed: "bg-red-100 text-red-800",
};
const STATUS_WORD: Record<WebhookDeliveryJson["status"], string> = {
  delivered: "Delivered",
  pending: "Waiting",
  failed: "Failed",
};

/** Minutes are what matter here; the zone is said, since the reader's may differ. */
const minuteUtc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const cell = "px-3 py-2 align-top";

function answerLine(d: WebhookDeliveryJson): string {
  if (d.durationMs === null) return "Not sent yet";
  return `${d.statusCode === null ? "No HTTP answer" : `HTTP ${d.statusCode}`} in ${d.durationMs} ms`;
}

export function Deliveries({ endpointId }: { endpointId: number }) {
  const [deliveries, setDeliveries] = useState<WebhookDeliveryJson[] | null>(null);
  const load = () => api<WebhookDeliveryJson[]>(`/api/webhooks/${endpointId}/deliveries`).then(setDeliveries, failed);
  const resend = (id: number) =>
    api(`/api/webhooks/${endpointId}/deliveries/${id}/resend`, { method: "POST" }).then(() => {
      toast({ title: "Queued again" });
      return load();
    }, failed);
  if (!deliveries) {
    return (
      <button type="button" className={buttonClass.secondary} onClick={load}>
        Show deliveries
      </button>
    );
  }
  return (
    <section className="space-y-2" aria-label="Latest deliveries">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-gray-800">Latest deliveries</h3>
        <button type="button" className={buttonClass.secondary} onClick={load}>
          Refresh
        </button>
      </div>
      <div className="overflow-x-auto rounded-md border border-gray-200">
        <table className="w-full text-left text-sm" aria-label="Deliveries">
          <thead className="bg-gray-50 text-xs uppercase tracking-wide text-gray-600">
            <tr>
              <th scope="col" className={cell}>
                Event
              </th>
              <th scope="col" className={cell}>
                Status
              </th>
              <th scope="col" className={cell}>
                Answer
              </th>
              <th scope="col" className={cell}>
                Queued
              </th>
              <th scope="col" className={cell}>
                Next attempt
              </th>
              <th scope="col" className={cell}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} className="border-t border-gray-100">
                <td className={cell}>
                  <p className="font-medium">{d.type}</p>
                  <p className="font-mono text-xs text-gray-500" title="webhook-id">
                    {d.eventId}
                  </p>
                </td>
                <td className={cell}>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[d.status]}`}>
                    {STATUS_WORD[d.status]}
                  </span>
                  <p className="mt-1 text-xs text-gray-500">
                    {d.attempt === 1 ? "1 attempt" : `${d.attempt} attempts`}
                  </p>
                </td>
                <td className={cell}>
                  <p>{answerLine(d)}</p>
                  {d.response && (
                    <p className="max-w-xs truncate text-xs text-gray-500" title={d.response}>
                      {d.response}
                    </p>
                  )}
                </td>
                <td className={`${cell} whitespace-nowrap`}>{minuteUtc(d.createdAt)}</td>
                <td className={`${cell} whitespace-nowrap`}>{d.nextAttemptAt ? minuteUtc(d.nextAttemptAt) : "–"}</td>
                <td className={`${cell} text-right`}>
                  <button type="button" className={buttonClass.secondary} onClick={() => resend(d.id)}>
                    Resend
                  </button>
                </td>
              </tr>
            ))}
            {deliveries.length === 0 && (
              <tr>
                <td colSpan={6} className={`${cell} text-gray-500`}>
                  No deliveries yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
