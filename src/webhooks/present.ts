// Rows as the API shows them (wire.ts): never the secret, except where an operation hands a new one out.
import type { Tables } from "../db/tables.ts";
import type { WebhookDeliveryJson, WebhookEndpointJson, WebhookEventType } from "./wire.ts";

type EndpointRow = Tables["webhookEndpoints"]["$inferSelect"];
type DeliveryRow = Tables["webhookDeliveries"]["$inferSelect"];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentEndpoint(row: EndpointRow, now: number): WebhookEndpointJson {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    paused: row.paused,
    previousSecretValidUntil:
      row.previousSecret && (row.previousSecretUntil ?? 0) > now ? iso(row.previousSecretUntil) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentDelivery(row: DeliveryRow): WebhookDeliveryJson {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.type,
    status: row.status as WebhookDeliveryJson["status"],
    attempt: row.attempts,
    statusCode: row.lastStatusCode,
    durationMs: row.lastDurationMs,
    response: row.lastResponse,
    nextAttemptAt: row.status === "pending" ? iso(Number(row.nextAttemptAt)) : null,
    createdAt: new Date(Number(row.createdAt)).toISOString(),
  };
}
