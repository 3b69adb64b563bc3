// /api/webhooks: endpoints, their deliveries, test events and resends, for the web app (cookie) and the CLI (token).
import { Elysia } from "elysia";
import { authPlugin, requireUser } from "../auth/plugin.ts";
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
    .use(authPlugin(services))
    .get("/", ({ viewer }) => listEndpoints(deps, requireUser(viewer)))
    .post("/", async ({ viewer, body, set }) => {
      const endpoint = await addEndpoint(deps, requireUser(viewer), parseInput(WebhookEndpointInput, body));
      set.status = 201;
      return endpoint;
    })
    .patch("/:id", ({ viewer, params, body }) =>
      updateEndpoint(deps, requireUser(viewer), numericId(params.id), parseInput(WebhookEndpointPatch, body)),
    )
    .delete("/:id", async ({ viewer, params, set }) => {
      await removeEndpoint(deps, requireUser(viewer), numericId(params.id));
      set.status = 204;
      return null;
    })
    .post("/:id/test", ({ viewer, params }) => {
      const user = requireUser(viewer);
      const id = numericId(params.id);
      return send(user, () => sendTestEvent(deps, user, id));
    })
    .post("/:id/rotate-secret", ({ viewer, params }) => rotateSecret(deps, requireUser(viewer), numericId(params.id)))
    .get("/:id/deliveries", ({ viewer, params }) => listDeliveries(deps, requireUser(viewer), numericId(params.id)))
    .post("/:id/deliveries/:deliveryId/resend", ({ viewer, params }) => {
      const user = requireUser(viewer);
      const [id, deliveryId] = [numericId(params.id), numericId(params.deliveryId, "Delivery not found")];
      return send(user, () => resendDelivery(deps, user, id, deliveryId));
    });
}
