// GET /api/webhooks: the user's endpoints, oldest first.
import { asc, eq } from "drizzle-orm";
import { tablesOf, type User } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { presentEndpoint } from "./present.ts";
import type { WebhookEndpointJson } from "./wire.ts";

export async function listEndpoints(deps: WebhookDeps, user: User): Promise<WebhookEndpointJson[]> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  const rows = await deps.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, user.id))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map((row) => presentEndpoint(row, deps.clock.now()));
}
