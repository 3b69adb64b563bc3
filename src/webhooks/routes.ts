// /api/webhooks: endpoints, their deliveries, test events and resends, for the web app (cookie) and the CLI (token).
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import { z } from "zod";
import type { RateLimiter } from "../http/rate-limit.ts";
import { INT32_ID_MAX, pathId } from "../http/validate.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { createEndpoint } from "./create-endpoint.ts";
import { listDeliveries } from "./deliveries.ts";
import { ENDPOINT_NOT_FOUND, SENDS_PER_MINUTE, type WebhookDeps } from "./deps.ts";
import { listEndpoints } from "./list-endpoints.ts";
import { WebhookEndpointInput, WebhookEndpointPatch } from "./model.ts";
import { deleteEndpoint } from "./delete-endpoint.ts";
import { resendDelivery } from "./resend.ts";
import { rotateSecret } from "./rotate-secret.ts";
import { sendTestEvent } from "./send-test.ts";
import { updateEndpoint } from "./update-endpoint.ts";
import { WebhookDeliverySchema, WebhookEndpointSchema, WebhookEndpointWithSecretSchema } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

const EndpointIdParams = z.object({ id: pathId(ENDPOINT_NOT_FOUND, INT32_ID_MAX).describe("The endpoint's id") });
const DeliveryParams = EndpointIdParams.extend({
  deliveryId: pathId("Delivery not found", INT32_ID_MAX).describe("The delivery's id"),
});

const endpointExample = {
  url: "https://hooks.example.com/linkprev",
  events: ["link.created", "link.clicked"],
  description: "CRM sync",
};

/** What /api/webhooks needs. */
/** `sendLimiter`: test events and resends per account and minute (SENDS_PER_MINUTE, src/webhooks/deps.ts). */
export type WebhookRouteDeps = { webhooks: WebhookDeps; sendLimiter: RateLimiter; session: SessionDeps };

export function webhookRoutes({ webhooks: deps, sendLimiter, session }: WebhookRouteDeps) {
  /** A test event or resend within the account's limit (202); past it a 429 with Retry-After (src/http/rate-limit.ts). */
  const send = async (workspace: Workspace, queue: () => Promise<unknown>) => {
    await sendLimiter.hit(
      `webhook-send:workspace:${workspace.id}`,
      "",
      `At most ${SENDS_PER_MINUTE} test events and resends a minute. Please try again when the minute is over.`,
    );
    return Response.json(await queue(), { status: 202 });
  };
  return new Elysia({ prefix: "/api/webhooks" })
    .use(routeGuards(session))
    .get("/", ({ workspace }) => listEndpoints(deps, workspace), {
      permission: "settings.read",
      response: { 200: z.array(WebhookEndpointSchema) },
      doc: {
        id: "listWebhooks",
        tag: "Webhooks",
        summary: "Your webhook endpoints (never their secret)",
        answers: { 200: "The endpoints" },
      },
    })
    .post(
      "/",
      async ({ acting, body, set }) => {
        const endpoint = await createEndpoint(deps, acting, body);
        set.status = 201;
        return endpoint;
      },
      {
        permission: "webhooks.write",
        body: WebhookEndpointInput,
        response: { 201: WebhookEndpointWithSecretSchema },
        doc: {
          id: "addWebhook",
          tag: "Webhooks",
          summary: "Add a webhook endpoint",
          description:
            "The URL must be https on a public address (http and private addresses only inside FETCH_ALLOW_PRIVATE). Pro and Enterprise plans; at most 10 per account.",
          body: { example: endpointExample },
          errors: [400, 403, 422],
          answers: { 201: "The endpoint, with its secret shown this once" },
        },
      },
    )
    .patch("/:id", ({ workspace, params, body }) => updateEndpoint(deps, workspace, params.id, body), {
      permission: "webhooks.write",
      params: EndpointIdParams,
      body: WebhookEndpointPatch,
      response: { 200: WebhookEndpointSchema },
      doc: {
        id: "updateWebhook",
        tag: "Webhooks",
        summary: "Change an endpoint, pause or resume it (paused), or re-enable it (enabled: true)",
        description:
          "While paused, events are recorded and wait (up to WEBHOOK_MAX_PENDING); they are sent when it is resumed.",
        body: { example: { enabled: true } },
        errors: [400, 404, 422],
        answers: { 200: "The endpoint" },
      },
    })
    .delete(
      "/:id",
      async ({ workspace, params, set }) => {
        await deleteEndpoint(deps, workspace, params.id);
        set.status = 204;
        return null;
      },
      {
        permission: "webhooks.write",
        params: EndpointIdParams,
        doc: {
          id: "removeWebhook",
          tag: "Webhooks",
          summary: "Remove an endpoint and its deliveries",
          errors: [404],
          answers: { 204: "Done; no body" },
        },
      },
    )
    .post("/:id/test", ({ workspace, params }) => send(workspace, () => sendTestEvent(deps, workspace, params.id)), {
      permission: "webhooks.write",
      params: EndpointIdParams,
      response: { 202: WebhookDeliverySchema },
      doc: {
        id: "testWebhook",
        tag: "Webhooks",
        summary: "Send a webhook.test event to this endpoint",
        description: "With resends, at most 20 a minute per account (429 with Retry-After).",
        errors: [404, 429],
        answers: { 202: "The delivery, queued" },
      },
    })
    .post("/:id/rotate-secret", ({ workspace, params }) => rotateSecret(deps, workspace, params.id), {
      permission: "webhooks.write",
      params: EndpointIdParams,
      response: { 200: WebhookEndpointWithSecretSchema },
      doc: {
        id: "rotateWebhookSecret",
        tag: "Webhooks",
        summary: "A new secret; the old one keeps signing for 24 hours",
        errors: [404],
        answers: { 200: "The endpoint, with its new secret shown this once" },
      },
    })
    .get("/:id/deliveries", ({ workspace, params }) => listDeliveries(deps, workspace, params.id), {
      permission: "settings.read",
      params: EndpointIdParams,
      response: { 200: z.array(WebhookDeliverySchema) },
      doc: {
        id: "listWebhookDeliveries",
        tag: "Webhooks",
        summary: "The endpoint's latest 50 deliveries, newest first",
        errors: [404],
        answers: { 200: "The deliveries" },
      },
    })
    .post(
      "/:id/deliveries/:deliveryId/resend",
      ({ workspace, params }) => send(workspace, () => resendDelivery(deps, workspace, params.id, params.deliveryId)),
      {
        permission: "webhooks.write",
        params: DeliveryParams,
        response: { 202: WebhookDeliverySchema },
        doc: {
          id: "resendWebhookDelivery",
          tag: "Webhooks",
          summary: "Send a delivery again (same webhook-id)",
          description: "With test events, at most 20 a minute per account (429 with Retry-After).",
          errors: [404, 429],
          answers: { 202: "The delivery, queued" },
        },
      },
    );
}
