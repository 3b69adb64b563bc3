// POST /api/webhooks: a new endpoint on a plan that has webhooks, within MAX_ENDPOINTS, at a URL the safe
// fetcher's rules accept; its secret is in this answer only.
import { count, eq } from "drizzle-orm";
import { entitlementFor } from "../plans/entitlement.ts";
import { tablesOf } from "../db/tables.ts";
import type { Acting } from "../workspaces/acting.ts";
import { forbidden } from "../http/errors.ts";
import type { WebhookDeps } from "./deps.ts";
import { MAX_ENDPOINTS, PLAN_WITHOUT_WEBHOOKS, planHasWebhooks, type WebhookEndpointInput } from "./model.ts";
import { presentEndpoint } from "./present.ts";
import { newSecret } from "./signing.ts";
import type { WebhookEndpointWithSecretJson } from "./wire.ts";

export async function createEndpoint(
  deps: WebhookDeps,
  { user, workspace }: Acting,
  input: WebhookEndpointInput,
): Promise<WebhookEndpointWithSecretJson> {
  const { webhookEndpoints } = tablesOf(deps.database.db);
  const { plan } = await entitlementFor(deps.database.db, deps.billingEnabled, workspace.id, deps.clock.now());
  if (!planHasWebhooks(plan.id)) throw forbidden(`${PLAN_WITHOUT_WEBHOOKS} Upgrade at /pricing.`);
  await deps.fetcher.checkDestination(input.url);
  const secret = newSecret();
  const row = await deps.database.transaction(async (tx) => {
    const [{ endpoints }] = await tx
      .select({ endpoints: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.workspaceId, workspace.id));
    if (Number(endpoints) >= MAX_ENDPOINTS)
      throw forbidden(`You have ${MAX_ENDPOINTS} webhook endpoints, the most an account may have. Remove one first.`);
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({
        userId: user.id,
        workspaceId: workspace.id,
        url: new URL(input.url).href,
        description: input.description,
        events: JSON.stringify(input.events),
        secret,
      })
      .returning();
    return created!;
  });
  return { ...presentEndpoint(row, deps.clock.now()), secret };
}
