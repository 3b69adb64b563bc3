// DELETE /api/webhooks/:id: the endpoint and its deliveries (pending ones are never sent).
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function deleteEndpoint(deps: WebhookDeps, workspace: Workspace, id: number): Promise<void> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  await findEndpoint(deps.database.db, workspace, id);
  await deps.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}
