// POST /api/webhooks/:id/rotate-secret: a new secret, shown in this answer only; the old one keeps signing beside
// it for 24 hours, so the receiver can be updated without losing a delivery.
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import { presentEndpoint } from "./present.ts";
import { newSecret } from "./signing.ts";
import type { WebhookEndpointWithSecretJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

const OLD_SECRET_KEPT_MS = 86_400_000;

export async function rotateSecret(
  deps: WebhookDeps,
  workspace: Workspace,
  id: number,
): Promise<WebhookEndpointWithSecretJson> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  const existing = await findEndpoint(deps.database.db, workspace, id);
  const secret = newSecret();
  const [row] = await deps.database.db
    .update(webhookEndpoints)
    .set({ secret, previousSecret: existing.secret, previousSecretUntil: deps.clock.now() + OLD_SECRET_KEPT_MS })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return { ...presentEndpoint(row!, deps.clock.now()), secret };
}
