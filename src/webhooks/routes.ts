// /api/webhooks: endpoints, their deliveries, test events and resends, for the web app (cookie) and the CLI (token).
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import type { User } from "../db/tables.ts";
import { AppError, notFound } from "../http/errors.ts";
import { RateLimiter } from "../http/rate-limit.ts";
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
        const endpoint = await addEndpoint(deps, user, parseInput(WebhookEndpointInput, body));
        set.status = 201;
        return endpoint;
      },
      { permission: "webhooks.write" },
    )
    .patch(
      "/:id",
      ({ user, params, body }) =>
        updateEndpoint(deps, user, numericId(params.id), parseInput(WebhookEndpointPatch, body)),
      { permission: "webhooks.write" },
    )
    .delete(
      "/:id",
      async ({ user, params, set }) => {
        await removeEndpoint(deps, user, numericId(params.id));
        set.status = 204;
        return null;
      },
      { permission: "webhooks.write" },
    )
    .post(
      "/:id/test",
      ({ user, params }) => {
        const id = numericId(params.id);
        return send(user, () => sendTestEvent(deps, user, id));
      },
      { permission: "webhooks.write" },
    )
    .post("/:id/rotate-secret", ({ user, params }) => rotateSecret(deps, user, numericId(params.id)), {
      permission: "webhooks.write",
    })
    .get("/:id/deliveries", ({ user, params }) => listDeliveries(deps, user, numericId(params.id)), { user: true })
    .post(
      "/:id/deliveries/:deliveryId/resend",
      ({ user, params }) => {
        const [id, deliveryId] = [numericId(params.id), numericId(params.deliveryId, "Delivery not found")];
        return send(user, () => resendDelivery(deps, user, id, deliveryId));
      },
      { permission: "webhooks.write" },
    );
}
