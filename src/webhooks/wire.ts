// What the webhook API answers and what each webhook event carries, as zod schemas: the OpenAPI document is
// generated from them, the CLI types its output with them, and the tests check deliveries against them. Pure zod.
import { z } from "zod";

const timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date and time");

/** The event types an endpoint can subscribe to. webhook.test goes only to the endpoint it was asked for. */
export const WEBHOOK_EVENT_TYPES = [
  "link.created",
  "link.updated",
  "link.deleted",
  "link.disabled",
  "link.broken",
  "link.clicked",
  "preview.fetched",
  "domain.verified",
  "domain.failing",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type SentEventType = WebhookEventType | "webhook.test";

const LinkRef = {
  id: z.number().int(),
  linkSlug: z.string(),
  shortUrl: z.string().describe("The link's short address (on its custom domain when it has one)"),
};

const LinkState = z.object({ ...LinkRef, targetUrl: z.string(), title: z.string(), description: z.string() });

/** Each event's `data`. link.clicked holds counts only: never an address, a User-Agent or a hash of either. */
export const WEBHOOK_EVENT_DATA = {
  "link.created": LinkState.meta({ id: "LinkCreatedEvent" }),
  "link.updated": LinkState.meta({ id: "LinkUpdatedEvent" }),
  "link.deleted": z.object(LinkRef).meta({ id: "LinkDeletedEvent" }),
  "link.disabled": z.object({ ...LinkRef, reason: z.string() }).meta({ id: "LinkDisabledEvent" }),
  "link.broken": z
    .object({
      ...LinkRef,
      targetUrl: z.string(),
      failedUrl: z.string().describe("The target that failed: targetUrl, or the targetUrl of one of the link's rules"),
      reason: z.string().describe("What the check of the target found, e.g. HTTP 404"),
    })
    .meta({ id: "LinkBrokenEvent" }),
  "link.clicked": z
    .object({
      id: z.number().int().describe("The link's id"),
      linkSlug: z.string(),
      from: timestamp.describe("Start of the window counted"),
      to: timestamp.describe("End of the window counted"),
      people: z.number().int().describe("Visits by people"),
      qrScans: z.number().int().describe("Visits by people through the QR code (?qr=1)"),
      crawlers: z.record(z.string(), z.number().int()).describe("Crawler fetches by platform (x, facebook, …; other)"),
    })
    .meta({ id: "LinkClickedEvent" }),
  "preview.fetched": z
    .object({
      id: z.number().int().describe("The link's id"),
      linkSlug: z.string(),
      platform: z.string().describe("The platform whose crawler fetched the card (x, slack, whatsapp, …; google, …)"),
      verification: z.enum(["verified", "unverified", "unverifiable"]).describe("Checked by its network"),
      version: z.number().int().describe("The link version fetched (1: the plain address)"),
      at: timestamp,
    })
    .meta({ id: "PreviewFetchedEvent" }),
  "domain.verified": z.object({ domain: z.string() }).meta({ id: "DomainVerifiedEvent" }),
  "domain.failing": z.object({ domain: z.string(), reason: z.string() }).meta({ id: "DomainFailingEvent" }),
  "webhook.test": z.object({ endpointId: z.number().int(), message: z.string() }).meta({ id: "WebhookTestEvent" }),
} satisfies Record<SentEventType, z.ZodType>;

export type WebhookEventData<T extends SentEventType> = z.input<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** The JSON body of every delivery (the Standard Webhooks shape). */
export const WebhookBodySchema = z
  .object({ type: z.string(), timestamp, data: z.record(z.string(), z.unknown()) })
  .meta({
    id: "WebhookBody",
    description: "Signed per standardwebhooks.com: headers webhook-id, webhook-timestamp, webhook-signature",
  });

/** Each event's whole body, for the OpenAPI document's `webhooks`: named after the type (link.created: LinkCreatedWebhook). */
export const WEBHOOK_BODIES: Array<[SentEventType, z.ZodType]> = (
  Object.keys(WEBHOOK_EVENT_DATA) as SentEventType[]
).map((type) => {
  const name = type.replace(/(^|\.)(\w)/g, (_, _dot: string, letter: string) => letter.toUpperCase());
  return [
    type,
    z.object({ type: z.literal(type), timestamp, data: WEBHOOK_EVENT_DATA[type] }).meta({ id: `${name}Webhook` }),
  ];
});

export const WebhookEndpointSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabledReason: z
      .string()
      .nullable()
      .describe("Why deliveries stopped (e.g. failing for 3 days); PATCH enabled: true re-enables"),
    paused: z
      .boolean()
      .describe("Paused by its owner (PATCH paused): events are recorded and wait, unsent, until paused is false"),
    previousSecretValidUntil: timestamp.nullable().describe("After a rotation, the old secret still signs until then"),
    createdAt: timestamp,
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpointJson = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().describe("whsec_…: shown only in this answer"),
}).meta({ id: "WebhookEndpointWithSecret" });
export type WebhookEndpointWithSecretJson = z.infer<typeof WebhookEndpointWithSecretSchema>;

export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().describe("The webhook-id header, the same on every attempt and resend"),
    type: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempt: z.number().int().describe("Attempts made so far"),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    response: z.string().nullable().describe("The start of the receiver's answer, or why there was none"),
    nextAttemptAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryJson = z.infer<typeof WebhookDeliverySchema>;
