// GET /api/webhooks: the user's endpoints, oldest first.
import { asc, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { presentEndpoint } from "./present.ts";
import type { WebhookEndpointJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function listEndpoints(deps: WebhookDeps, workspace: Workspace): Promise<WebhookEndpointJson[]> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  const rows = await deps.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspace.id))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map((row) => presentEndpoint(row, deps.clock.now()));
}
