// GET /api/webhooks/:id/deliveries: the endpoint's latest deliveries, newest first.
import { desc, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import { presentDelivery } from "./present.ts";
import type { WebhookDeliveryJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export const DELIVERIES_SHOWN = 50;

export async function listDeliveries(
  deps: WebhookDeps,
  workspace: Workspace,
  id: number,
): Promise<WebhookDeliveryJson[]> {
  const { webhookDeliveries } = tablesOf(deps.database.db);
  await findEndpoint(deps.database.db, workspace, id);
  const rows = await deps.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(DELIVERIES_SHOWN);
  return rows.map(presentDelivery);
}
