// The outbox write: called inside the transaction of the change an event announces, so the event exists exactly
// when the change does. One delivery row per enabled endpoint of the workspace subscribed to the type; the deliverer
// (deliverer.ts) sends them after the commit, never on the request's own path.
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { SentEventType, WebhookEventData } from "./wire.ts";

/** The webhook-id of a new event: unique, and kept through every retry and resend. */
export const newEventId = () => `msg_${Bun.randomUUIDv7("base64url")}`;

/** The signed JSON body: {type, timestamp, data}. */
export const eventBody = (type: SentEventType, at: number, data: unknown) =>
  JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });

/** The outbox row of an event for one endpoint, due at once. */
export const outboxRow = (
  endpoint: { id: number; userId: number; workspaceId: number },
  eventId: string,
  type: SentEventType,
  at: number,
  data: unknown,
) => ({
  endpointId: endpoint.id,
  userId: endpoint.userId,
  workspaceId: endpoint.workspaceId,
  eventId,
  type,
  payload: eventBody(type, at, data),
  nextAttemptAt: at,
  createdAt: at,
});

export async function recordEvent<T extends SentEventType>(
  tx: Db,
  event: { workspaceId: number; type: T; data: WebhookEventData<T>; at: number },
): Promise<void> {
  const { webhookDeliveries, webhookEndpoints } = tablesOf(tx);
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, userId: webhookEndpoints.userId, workspaceId: webhookEndpoints.workspaceId })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, event.workspaceId),
        eq(webhookEndpoints.enabled, true),
        like(webhookEndpoints.events, `%"${event.type}"%`),
      ),
    );
  if (endpoints.length === 0) return;
  const id = newEventId();
  await tx
    .insert(webhookDeliveries)
    .values(endpoints.map((endpoint) => outboxRow(endpoint, id, event.type, event.at, event.data)));
}
