// PATCH /api/webhooks/:id: a new URL (checked like a new one), events or description; `enabled: true` re-enables
// an endpoint that was disabled after failing (its failure clock starts again); `paused` holds its deliveries (they
// wait, recorded, until it is resumed). A patch that changes nothing answers the endpoint as it is.
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { WebhookDeps } from "./deps.ts";
import { findEndpoint } from "./find-endpoint.ts";
import type { WebhookEndpointPatch } from "./model.ts";
import { presentEndpoint } from "./present.ts";
import type { WebhookEndpointJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function updateEndpoint(
  deps: WebhookDeps,
  workspace: Workspace,
  id: number,
  patch: WebhookEndpointPatch,
): Promise<WebhookEndpointJson> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  const current = await findEndpoint(deps.database.db, workspace, id);
  if (patch.url !== undefined) await deps.fetcher.checkDestination(patch.url);
  const enabling =
    patch.enabled === undefined
      ? {}
      : patch.enabled
        ? { enabled: true, disabledReason: null, failingSince: null }
        : { enabled: false, disabledReason: "Disabled by its owner" };
  const changes = {
    ...(patch.url !== undefined ? { url: new URL(patch.url).href } : {}),
    ...(patch.events !== undefined ? { events: JSON.stringify(patch.events) } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
    ...enabling,
  };
  if (Object.keys(changes).length === 0) return presentEndpoint(current, deps.clock.now());
  const [row] = await deps.database.db
    .update(webhookEndpoints)
    .set(changes)
    .where(eq(webhookEndpoints.id, id))
    .returning();
  return presentEndpoint(row!, deps.clock.now());
}
