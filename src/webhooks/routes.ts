// /api/webhooks: endpoints, their deliveries, test events and resends, for the web app (cookie) and the CLI (token).
import { Elysia } from "elysia";
import { authPlugin, requireUser } from "../auth/plugin.ts";
import { notFound } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { Services } from "../services.ts";
import { addEndpoint } from "./add-endpoint.ts";
import { listDeliveries } from "./deliveries.ts";
import { ENDPOINT_NOT_FOUND } from "./deps.ts";
import { listEndpoints } from "./list-endpoints.ts";
import { WebhookEndpointInput, WebhookEndpointPatch } from "./model.ts";
import { removeEndpoint } from "./remove-endpoint.ts";
import { resendDelivery } from "./resend.ts";
import { rotateSecret } from "./rotate-secret.ts";
import { sendTestEvent } from "./send-test.ts";
import { updateEndpoint } from "./update-endpoint.ts";

function numericId(value: string, message = ENDPOINT_NOT_FOUND): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound(message);
  return id;
}

export function webhookRoutes(services: Services) {
  const deps = services.webhooks;
  return new Elysia({ prefix: "/api/webhooks" })
    .use(authPlugin(services))
    .get("/", ({ viewer }) => listEndpoints(deps, requireUser(viewer)))
    .post("/", async ({ viewer, body, set }) => {
      const endpoint = await addEndpoint(deps, requireUser(viewer), parseInput(WebhookEndpointInput, body));
      set.status = 201;
      return endpoint;
    })
    .patch("/:id", ({ viewer, params, body }) => updateEndpoint(deps, requireUser(viewer), numericId(params.id), parseInput(WebhookEndpointPatch, body)))
    .delete("/:id", async ({ viewer, params, set }) => {
      await removeEndpoint(deps, requireUser(viewer), numericId(params.id));
      set.status = 204;
      return null;
    })
    .post("/:id/test", async ({ viewer, params, set }) => {
      const delivery = await sendTestEvent(deps, requireUser(viewer), numericId(params.id));
      set.status = 202;
      return delivery;
    })
    .post("/:id/rotate-secret", ({ viewer, params }) => rotateSecret(deps, requireUser(viewer), numericId(params.id)))
    .get("/:id/deliveries", ({ viewer, params }) => listDeliveries(deps, requireUser(viewer), numericId(params.id)))
    .post("/:id/deliveries/:deliveryId/resend", async ({ viewer, params, set }) => {
      const delivery = await resendDelivery(deps, requireUser(viewer), numericId(params.id), numericId(params.deliveryId, "Delivery not found"));
      set.status = 202;
      return delivery;
    });
}
