// POST /api/webhooks/:id/test: a webhook.test event for this endpoint alone, through the outbox like any other.
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import { presentDelivery } from "./present.ts";
import { newEventId, outboxRow } from "./record-event.ts";
import type { WebhookDeliveryJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function sendTestEvent(deps: WebhookDeps, workspace: Workspace, id: number): Promise<WebhookDeliveryJson> {
  const { webhookDeliveries } = tablesOf(deps.database.db);
  const endpoint = await findEndpoint(deps.database.db, workspace, id);
  const data = {
    endpointId: endpoint.id,
    message: "A test event from LinkPrev: this endpoint receives and verifies deliveries.",
  };
  const [row] = await deps.database.db
    .insert(webhookDeliveries)
    .values(outboxRow(endpoint, newEventId(), "webhook.test", deps.clock.now(), data))
    .returning();
  return presentDelivery(row!);
}
