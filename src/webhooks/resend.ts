// POST /api/webhooks/:id/deliveries/:deliveryId/resend: the same event (same webhook-id, same body) due again at
// once, with a fresh retry schedule.
import { and, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import { presentDelivery } from "./present.ts";
import type { WebhookDeliveryJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function resendDelivery(
  deps: WebhookDeps,
  workspace: Workspace,
  endpointId: number,
  deliveryId: number,
): Promise<WebhookDeliveryJson> {
  const { webhookDeliveries } = tablesOf(deps.database.db);
  await findEndpoint(deps.database.db, workspace, endpointId);
  const [row] = await deps.database.db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: deps.clock.now() })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)))
    .returning();
  if (!row) throw notFound("Delivery not found");
  return presentDelivery(row);
}
