// The webhook endpoints' /api operations (src/webhooks/), described from their zod schemas; listed in operations.ts.
import { z } from "zod";
import { WebhookEndpointInput, WebhookEndpointPatch } from "../webhooks/model.ts";
import { WebhookDeliverySchema, WebhookEndpointSchema, WebhookEndpointWithSecretSchema } from "../webhooks/wire.ts";
import type { ApiOperation } from "./operation-types.ts";

const EndpointId = z.object({ id: z.coerce.number().int().min(1).describe("The endpoint's id") });
const DeliveryId = EndpointId.extend({ deliveryId: z.coerce.number().int().min(1).describe("The delivery's id") });
const endpointExample = {
  url: "https://hooks.example.com/linkprev",
  events: ["link.created", "link.clicked"],
  description: "CRM sync",
};

export const WEBHOOK_OPERATIONS: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/webhooks/",
    operationId: "listWebhooks",
    tag: "Webhooks",
    summary: "Your webhook endpoints (never their secret)",
    access: "user",
    responses: { 200: { description: "The endpoints", schema: z.array(WebhookEndpointSchema) } },
  },
  {
    method: "POST",
    path: "/api/webhooks/",
    operationId: "addWebhook",
    tag: "Webhooks",
    summary: "Add a webhook endpoint",
    description:
      "The URL must be https on a public address (http and private addresses only inside FETCH_ALLOW_PRIVATE). Pro and Enterprise plans; at most 10 per account.",
    access: "user",
    body: { schema: WebhookEndpointInput, example: endpointExample },
    errors: [400, 403, 422],
    responses: {
      201: { description: "The endpoint, with its secret shown this once", schema: WebhookEndpointWithSecretSchema },
    },
  },

  {
    method: "PATCH",
    path: "/api/webhooks/:id",
    operationId: "updateWebhook",
    tag: "Webhooks",
    summary: "Change an endpoint, pause or resume it (paused), or re-enable it (enabled: true)",
    description:
      "While paused, events are recorded and wait (up to WEBHOOK_MAX_PENDING); they are sent when it is resumed.",
    access: "user",
    params: EndpointId,
    body: { schema: WebhookEndpointPatch, example: { enabled: true } },
    errors: [400, 404, 422],
    responses: { 200: { description: "The endpoint", schema: WebhookEndpointSchema } },
  },
  {
    method: "DELETE",
    path: "/api/webhooks/:id",
    operationId: "removeWebhook",
    tag: "Webhooks",
    summary: "Remove an endpoint and its deliveries",
    access: "user",
    params: EndpointId,
    errors: [404],
    responses: { 204: { description: "Done; no body" } },
  },
  {
    method: "POST",
    path: "/api/webhooks/:id/test",
    operationId: "testWebhook",
    tag: "Webhooks",
    summary: "Send a webhook.test event to this endpoint",
    description: "With resends, at most 20 a minute per account (429 with Retry-After).",
    access: "user",
    params: EndpointId,
    errors: [404, 429],
    responses: { 202: { description: "The delivery, queued", schema: WebhookDeliverySchema } },
  },
  {
    method: "POST",
    path: "/api/webhooks/:id/rotate-secret",
    operationId: "rotateWebhookSecret",
    tag: "Webhooks",
    summary: "A new secret; the old one keeps signing for 24 hours",
    access: "user",
    params: EndpointId,
    errors: [404],
    responses: {
      200: {
        description: "The endpoint, with its new secret shown this once",
        schema: WebhookEndpointWithSecretSchema,
      },
    },
  },
  {
    method: "GET",
    path: "/api/webhooks/:id/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "The endpoint's latest 50 deliveries, newest first",
    access: "user",
    params: EndpointId,
    errors: [404],
    responses: { 200: { description: "The deliveries", schema: z.array(WebhookDeliverySchema) } },
  },
  {
    method: "POST",
    path: "/api/webhooks/:id/deliveries/:deliveryId/resend",
    operationId: "resendWebhookDelivery",
    tag: "Webhooks",
    summary: "Send a delivery again (same webhook-id)",
    description: "With test events, at most 20 a minute per account (429 with Retry-After).",
    access: "user",
    params: DeliveryId,
    errors: [404, 429],
    responses: { 202: { description: "The delivery, queued", schema: WebhookDeliverySchema } },
  },
];
