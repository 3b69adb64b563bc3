// /api/webhooks: endpoints, their deliveries, test events and resends, for the web app (cookie) and the CLI (token).
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import type { User } from "../db/tables.ts";
import { z } from "zod";
import { RateLimiter } from "../http/rate-limit.ts";
import { pathId } from "../http/validate.ts";
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

/** Ids are 32-bit in the database: a larger one names nothing. */
const ID_MAX = 2_147_483_647;
const EndpointIdParams = z.object({ id: pathId(ENDPOINT_NOT_FOUND, ID_MAX).describe("The endpoint's id") });
const DeliveryParams = EndpointIdParams.extend({
  deliveryId: pathId("Delivery not found", ID_MAX).describe("The delivery's id"),
});

/** Test events and resends an account may ask for a minute: each is one more delivery to send. */
export const SENDS_PER_MINUTE = 20;
const SEND_WINDOW_MS = 60_000;

export function webhookRoutes(services: Services) {
  const deps = services.webhooks;
  const sendLimiter = new RateLimiter(services.hits.countHit, SENDS_PER_MINUTE, services.clock, SEND_WINDOW_MS);
  /** A test event or resend within the account's limit (202); past it a 429 with Retry-After (src/http/rate-limit.ts). */
  const send = async (user: User, queue: () => Promise<unknown>) => {
    await sendLimiter.hit(
      `webhook-send:user:${user.id}`,
      "",
      `At most ${SENDS_PER_MINUTE} test events and resends a minute. Please try again when the minute is over.`,
    );
    return Response.json(await queue(), { status: 202 });
  };
  return new Elysia({ prefix: "/api/webhooks" })
    .use(routeGuards(services))
    .get("/", ({ user }) => listEndpoints(deps, user), { user: true })
    .post(
      "/",
      async ({ user, body, set }) => {
        const endpoint = await addEndpoint(deps, user, body);
        set.status = 201;
        return endpoint;
      },
      { permission: "webhooks.write", body: WebhookEndpointInput },
    )
    .patch("/:id", ({ user, params, body }) => updateEndpoint(deps, user, params.id, body), {
      permission: "webhooks.write",
      params: EndpointIdParams,
      body: WebhookEndpointPatch,
    })
    .delete(
      "/:id",
      async ({ user, params, set }) => {
        await removeEndpoint(deps, user, params.id);
        set.status = 204;
        return null;
      },
      { permission: "webhooks.write", params: EndpointIdParams },
    )
    .post("/:id/test", ({ user, params }) => send(user, () => sendTestEvent(deps, user, params.id)), {
      permission: "webhooks.write",
      params: EndpointIdParams,
    })
    .post("/:id/rotate-secret", ({ user, params }) => rotateSecret(deps, user, params.id), {
      permission: "webhooks.write",
      params: EndpointIdParams,
    })
    .get("/:id/deliveries", ({ user, params }) => listDeliveries(deps, user, params.id), {
      user: true,
      params: EndpointIdParams,
    })
    .post(
      "/:id/deliveries/:deliveryId/resend",
      ({ user, params }) => send(user, () => resendDelivery(deps, user, params.id, params.deliveryId)),
      { permission: "webhooks.write", params: DeliveryParams },
    );
}
