// Every /api operation, described once from the zod schemas the routes validate with and the response schemas
// the services are checked against: the OpenAPI document (openapi.ts) and the reference page (/docs/api) are
// generated from this list, and a test fails when the server serves an /api route that is not in it.
// A new route: import its schemas and add one entry.
import { z } from "zod";
import { DeleteInput } from "../account/routes.ts";
import { ConsentInput, LoginLinkInput, TokenName } from "../auth/routes.ts";
import { ApiTokenSchema, NewApiTokenSchema, UserSchema } from "../auth/wire.ts";
import {
  ActiveSubscriptionSchema,
  BusinessInfoSchema,
  CheckoutSchema,
  PlanSchema,
  VatCheckSchema,
  WebhookAnswerSchema,
} from "../billing/wire.ts";
import { CheckoutInput } from "../billing/service.ts";
import { VatInput } from "../billing/vat.ts";
import { LinkInput, RequestedSlug, SLUG_MAX, SlugCheckLinkId } from "../links/model.ts";
import { MetadataRequest } from "../links/metadata.ts";
import {
  LinkPlatformsSchema,
  LinkSchema,
  LinkStatsSchema,
  LinkVersionSchema,
  LinkViewsSchema,
  LintResultSchema,
  PageMetadataSchema,
  SlugAvailabilitySchema,
} from "../links/wire.ts";
import { DaysQuery, QrQuery } from "../links/routes.ts";
import { LinkPageQuery } from "../links/list-page.ts";
import { ReportInputSchema, ReportSchema } from "../safety/wire.ts";
import { DOMAIN_OPERATIONS } from "./domain-operations.ts";
import type { ApiOperation, ApiResponse } from "./operation-types.ts";
import { WEBHOOK_OPERATIONS } from "./webhook-operations.ts";

const LinkId = z.object({ id: z.coerce.number().int().min(1).describe("The link's id") });
const TokenId = z.object({ id: z.coerce.number().int().min(1).describe("The token's id") });
const LinkSlugParam = z.object({
  linkSlug: z.string().max(SLUG_MAX).describe("The link's slug (the last part of its short URL)"),
});
const SlugQuery = z.object({ slug: RequestedSlug, linkId: SlugCheckLinkId });
const OAuthCallbackQuery = z.object({ code: z.string(), state: z.string() });
const WebhookEvent = z
  .object({ id: z.string(), type: z.string() })
  .loose()
  .describe("A Stripe event, signed in the Stripe-Signature header");

const linkExample = {
  title: "We launched",
  description: "Everything new in version 2",
  targetUrl: "https://example.com/blog/launch",
  customLinkSlug: "launch",
};
const html = (description: string): ApiResponse => ({ description, contentType: "text/html" });
const redirect = (description: string): ApiResponse => ({ description });
const noContent: ApiResponse = { description: "Done; no body" };

export const API_OPERATIONS: ApiOperation[] = [
  // Links
  {
    method: "GET",
    path: "/api/links/",
    operationId: "listLinks",
    tag: "Links",
    summary: "List your live links, newest first; or one page of them, searched and sorted",
    description:
      "Without parameters: every live link, newest first. With any of limit, cursor, q or sort: one page (the same bare array) and, when there is more, a `Link: <…>; rel=\"next\"` header with the next page's address, as GitHub's API pages.",
    access: "user",
    query: LinkPageQuery,
    errors: [400],
    responses: {
      200: {
        description: "The links",
        schema: z.array(LinkSchema),
        headers: { Link: 'The next page, `<URL>; rel="next"`; absent on the last page and without paging parameters' },
      },
    },
  },
  {
    method: "GET",
    path: "/api/links/deleted",
    operationId: "listDeletedLinks",
    tag: "Links",
    summary: "List your deleted links",
    access: "user",
    responses: { 200: { description: "The deleted links", schema: z.array(LinkSchema) } },
  },
  {
    method: "GET",
    path: "/api/links/stats",
    operationId: "linkStats",
    tag: "Links",
    summary: "Totals over your live links",
    access: "user",
    responses: {
      200: {
        description: "Counts",
        schema: LinkStatsSchema,
        example: { totalLinks: 3, totalViews: 352, humanViews: 340, botViews: 12, uniqueHumans: 290, scans: 17 },
      },
    },
  },
  {
    method: "GET",
    path: "/api/links/check-slug-availability",
    operationId: "checkSlugAvailability",
    tag: "Links",
    summary: "Whether a custom slug is free for you",
    access: "user",
    query: SlugQuery,
    errors: [400],
    responses: {
      200: {
        description: "The answer",
        schema: SlugAvailabilitySchema,
        example: { available: false, message: "This custom URL is already taken" },
      },
    },
  },
  {
    method: "POST",
    path: "/api/links/",
    operationId: "createLink",
    tag: "Links",
    summary: "Create a link",
    description:
      "JSON, or multipart/form-data with the same fields and an optional `image` file (JPEG, PNG, WebP or GIF), which LinkPrev resizes for the card.",
    access: "user",
    body: { schema: LinkInput, multipart: true, example: linkExample },
    errors: [400, 402, 403, 409, 413, 422, 429, 503],
    responses: { 201: { description: "The new link", schema: LinkSchema } },
  },
  {
    method: "POST",
    path: "/api/links/lint",
    operationId: "lintLink",
    tag: "Links",
    summary: "Check a card before saving it",
    description: "What each platform will cut or refuse; nothing is stored.",
    access: "user",
    body: { schema: LinkInput, multipart: true, example: linkExample },
    errors: [400, 413, 422, 429, 503],
    responses: { 200: { description: "The warnings", schema: LintResultSchema } },
  },
  {
    method: "GET",
    path: "/api/links/by-slug/:linkSlug",
    operationId: "getLink",
    tag: "Links",
    summary: "One of your links by its slug",
    access: "user",
    params: LinkSlugParam,
    errors: [404],
    responses: { 200: { description: "The link", schema: LinkSchema } },
  },
  {
    method: "PUT",
    path: "/api/links/by-slug/:linkSlug",
    operationId: "updateLink",
    tag: "Links",
    summary: "Replace a link's card and target",
    access: "user",
    params: LinkSlugParam,
    body: { schema: LinkInput, multipart: true, example: linkExample },
    errors: [400, 403, 404, 409, 413, 422, 429, 503],
    responses: { 200: { description: "The updated link", schema: LinkSchema } },
  },
  {
    method: "GET",
    path: "/api/links/:id/views",
    operationId: "linkViews",
    tag: "Links",
    summary: "A link's views per day, people and crawlers apart",
    access: "user",
    params: LinkId,
    query: DaysQuery,
    errors: [400, 404],
    responses: {
      200: {
        description: "Per-day series and crawler platforms",
        schema: LinkViewsSchema,
        example: {
          days: [{ date: "2026-11-22", human: 14, bot: 2, uniqueHumans: 11, scans: 3 }],
          platforms: [{ platform: "slack", count: 2 }],
        },
      },
    },
  },
  {
    method: "GET",
    path: "/api/links/:id/platforms",
    operationId: "linkPlatforms",
    tag: "Links",
    summary: "When each platform last fetched the card, and how to refresh it",
    access: "user",
    params: LinkId,
    errors: [404],
    responses: { 200: { description: "Per platform", schema: LinkPlatformsSchema } },
  },
  {
    method: "POST",
    path: "/api/links/:id/versions",
    operationId: "createLinkVersion",
    tag: "Links",
    summary: "Issue a new version of the short URL",
    description:
      "The same link at /go/{user}/{link}/{n}, counted into it, its card's og:url naming that address: for platforms that keep an old card and offer no refresh tool.",
    access: "user",
    params: LinkId,
    errors: [402, 404],
    responses: { 201: { description: "The new version and its address", schema: LinkVersionSchema } },
  },
  {
    method: "GET",
    path: "/api/links/:id/qr",
    operationId: "linkQrCode",
    tag: "Links",
    summary: "A QR code for the short URL",
    description:
      "Encodes the short URL with the scan marker ?qr=1: a visit through it counts as a scan too; the marker never reaches the target.",
    access: "user",
    params: LinkId,
    query: QrQuery,
    errors: [400, 404],
    responses: {
      200: { description: "The code as SVG (format=svg) or PNG (format=png)", contentType: "image/svg+xml" },
    },
  },
  {
    method: "POST",
    path: "/api/links/metadata",
    operationId: "pageMetadata",
    tag: "Links",
    summary: "Title, description and image of a web page (auto-fill)",
    description:
      "Fetched by the safe fetcher: public addresses on ports 80/443 only, at most 3 redirects, 8 s, HTML only, the head read up to 512 KB. 404 when the server has FETCH_DISABLED=true.",
    access: "user",
    body: { schema: MetadataRequest, example: { url: "https://example.com/blog/launch" } },
    errors: [400, 404, 422, 429],
    responses: { 200: { description: "What the page says of itself (each may be null)", schema: PageMetadataSchema } },
  },
  {
    method: "GET",
    path: "/api/links/export.csv",
    operationId: "exportLinksCsv",
    tag: "Account",
    summary: "Your live links as CSV",
    description:
      "Columns: slug, short URL, target, title, description, image URL, created, human views, bot views. Every cell quoted; a cell that starts with = + - @ is prefixed with ' (spreadsheet formulas). `linkprev links import` reads it back.",
    access: "user",
    responses: { 200: { description: "A CSV attachment", contentType: "text/csv" } },
  },
  {
    method: "GET",
    path: "/api/account/export",
    operationId: "exportAccount",
    tag: "Account",
    summary: "All your data as one JSON document",
    description:
      "Profile, consents, subscriptions, payments, API token names, webhook endpoints (never their secrets), domains, every link (live and deleted, with expiresAt, maxClicks, expiredUrl, rules, hasPassword, never the password's hash, and health), per-day counts and the raw views still kept (addresses as stored: shortened).",
    access: "user",
    responses: {
      200: { description: "A JSON attachment (linkprev-export-<date>.json)", contentType: "application/json" },
    },
  },
  {
    method: "DELETE",
    path: "/api/account",
    operationId: "deleteAccount",
    tag: "Account",
    summary: "Delete your account and everything in it",
    description:
      "Cancels the subscription at once, deletes links, views, images, sessions, tokens and consents; payment records stay without personal data. Signs you out. Safe to retry.",
    access: "user",
    body: { schema: DeleteInput, example: { confirmEmail: "ana@example.com" } },
    errors: [400, 502],
    responses: { 204: noContent },
  },
  {
    method: "DELETE",
    path: "/api/links/:id/old-addresses/:addressId",
    operationId: "dropOldAddress",
    tag: "Links",
    summary: "Drop one of a link's earlier addresses",
    description:
      "The address (one of the link's oldAddresses) answers 410 Gone from now on, to people and crawlers alike, and none of your links can take its slug again.",
    access: "user",
    params: LinkId.extend({
      addressId: z.coerce.number().int().min(1).describe("The earlier address's id (oldAddresses[].id)"),
    }),
    errors: [404],
    responses: { 204: noContent },
  },
  {
    method: "DELETE",
    path: "/api/links/:id",
    operationId: "deleteLink",
    tag: "Links",
    summary: "Delete a link",
    description: "Its short URL stops answering at once; the link is listed under deleted links.",
    access: "user",
    params: LinkId,
    errors: [403, 404],
    responses: { 204: noContent },
  },

  // Custom domains
  ...DOMAIN_OPERATIONS,
  {
    method: "POST",
    path: "/api/reports",
    operationId: "reportLink",
    tag: "Links",
    summary: "Report a link (phishing, malware, spam, impersonation, other)",
    description:
      "No sign-in needed; 5 reports an hour per client address. The inspect page (any short URL with + appended) posts the same as a form and is sent back to it. Your address is stored shortened, as for views.",
    access: "public",
    body: {
      schema: ReportInputSchema,
      form: true,
      example: {
        address: "https://linkprev.example/go/ana/launch",
        reason: "phishing",
        details: "Asks for a bank password",
      },
    },
    errors: [400, 404, 429],
    responses: {
      201: { description: "The report, sent to the operators", schema: ReportSchema },
      303: redirect("A form post: back to the inspect page"),
    },
  },

  // Account and sign-in
  {
    method: "GET",
    path: "/api/auth/user",
    operationId: "currentUser",
    tag: "Account",
    summary: "Who you are signed in as",
    access: "user",
    responses: { 200: { description: "You", schema: UserSchema } },
  },
  {
    method: "POST",
    path: "/api/auth/consent",
    operationId: "recordConsent",
    tag: "Account",
    summary: "Accept the terms and the privacy policy",
    access: "user",
    body: { schema: ConsentInput, example: { termsAccepted: true, privacyAccepted: true } },
    errors: [400, 403],
    responses: { 200: { description: "You, consent recorded", schema: UserSchema } },
  },
  {
    method: "GET",
    path: "/api/auth/google",
    operationId: "googleSignIn",
    tag: "Sign-in",
    summary: "Start signing in with Google",
    description:
      "For browsers: a redirect to Google, or a page saying how to sign in when Google sign-in is not configured; signed in already, a redirect to the dashboard.",
    access: "public",
    errors: [429],
    responses: {
      302: redirect("To Google, or signed in already to /admin"),
      200: html("How to sign in on this instance (Google sign-in is not configured)"),
    },
  },
  {
    method: "GET",
    path: "/api/auth/google/callback",
    operationId: "googleCallback",
    tag: "Sign-in",
    summary: "Where Google sends the browser back",
    access: "public",
    query: OAuthCallbackQuery,
    errors: [429],
    responses: {
      302: redirect("Signed in: to /admin, with the session cookie"),
      400: html("The sign-in failed"),
      404: html("Google sign-in is not configured"),
    },
  },
  {
    method: "POST",
    path: "/api/auth/login-link",
    operationId: "useLoginLink",
    tag: "Sign-in",
    summary: "Sign in with a one-time link's token",
    access: "public",
    body: { schema: LoginLinkInput, form: true },
    errors: [403, 429],
    responses: {
      303: redirect("Signed in: to /admin, with the session cookie"),
      400: html("The link is invalid, used or expired"),
    },
  },
  {
    method: "GET",
    path: "/api/auth/logout",
    operationId: "signOut",
    tag: "Sign-in",
    summary: "Sign out",
    description:
      "Signs out when the browser says the request did not come from another site (Sec-Fetch-Site same-origin or none, or no such header); otherwise a signed-in browser gets a page asking to confirm with POST /api/auth/logout.",
    access: "public",
    responses: {
      302: redirect("To the home page, the session ended"),
      200: html("Sign out? (the request came from another site): a button that posts to /api/auth/logout"),
    },
  },
  {
    method: "POST",
    path: "/api/auth/logout",
    operationId: "signOutConfirmed",
    tag: "Sign-in",
    summary: "Sign out (the confirmation page's button)",
    access: "public",
    errors: [403],
    responses: { 303: redirect("To the home page, the session ended") },
  },

  // Webhooks
  ...WEBHOOK_OPERATIONS,

  // Tokens
  {
    method: "GET",
    path: "/api/tokens",
    operationId: "listTokens",
    tag: "Tokens",
    summary: "Your API tokens (never their secret)",
    access: "user",
    responses: { 200: { description: "The tokens", schema: z.array(ApiTokenSchema) } },
  },
  {
    method: "POST",
    path: "/api/tokens",
    operationId: "createToken",
    tag: "Tokens",
    summary: "Create an API token",
    access: "user",
    body: { schema: TokenName, example: { name: "laptop" } },
    errors: [400, 403, 429],
    responses: { 201: { description: "The token, with its secret shown this once", schema: NewApiTokenSchema } },
  },
  {
    method: "DELETE",
    path: "/api/tokens/:id",
    operationId: "revokeToken",
    tag: "Tokens",
    summary: "Revoke an API token",
    access: "user",
    params: TokenId,
    errors: [403, 404],
    responses: { 204: noContent },
  },

  // Billing
  {
    method: "GET",
    path: "/api/plans",
    operationId: "listPlans",
    tag: "Billing",
    summary: "The plans and their prices",
    access: "public",
    responses: { 200: { description: "The plans", schema: z.array(PlanSchema) } },
  },
  {
    method: "GET",
    path: "/api/business/info",
    operationId: "businessInfo",
    tag: "Billing",
    summary: "Where the seller is established (for VAT)",
    access: "public",
    responses: { 200: { description: "The country", schema: BusinessInfoSchema, example: { countryCode: "PT" } } },
  },
  {
    method: "GET",
    path: "/api/subscriptions/active",
    operationId: "activeSubscription",
    tag: "Billing",
    summary: "Your subscription",
    access: "user",
    responses: { 200: { description: "The subscription, if any", schema: ActiveSubscriptionSchema } },
  },
  {
    method: "POST",
    path: "/api/subscriptions",
    operationId: "subscribe",
    tag: "Billing",
    summary: "Subscribe, or change plan",
    access: "user",
    body: { schema: CheckoutInput, example: { planId: "pro" } },
    errors: [400, 403, 409, 502, 503],
    responses: { 200: { description: "Where to go next", schema: CheckoutSchema } },
  },
  {
    method: "POST",
    path: "/api/subscriptions/cancel",
    operationId: "cancelSubscription",
    tag: "Billing",
    summary: "Cancel at the end of the period",
    access: "user",
    errors: [403, 404, 502, 503],
    responses: { 200: { description: "The subscription", schema: ActiveSubscriptionSchema } },
  },
  {
    method: "POST",
    path: "/api/subscriptions/reactivate",
    operationId: "reactivateSubscription",
    tag: "Billing",
    summary: "Keep a cancelled subscription",
    access: "user",
    errors: [403, 404, 502, 503],
    responses: { 200: { description: "The subscription", schema: ActiveSubscriptionSchema } },
  },
  {
    method: "POST",
    path: "/api/stripe/webhook",
    operationId: "stripeWebhook",
    tag: "Billing",
    summary: "Stripe's events (Stripe calls it)",
    access: "public",
    body: { schema: WebhookEvent },
    errors: [400],
    responses: { 200: { description: "Received", schema: WebhookAnswerSchema } },
  },
  {
    method: "POST",
    path: "/api/vat/validate",
    operationId: "validateVat",
    tag: "Billing",
    summary: "Check an EU VAT number with VIES",
    description: "Signed in, a valid number is kept for checkout.",
    access: "optional",
    body: { schema: VatInput, example: { countryCode: "DE", vatNumber: "DE123456789" } },
    errors: [400, 403, 429, 503],
    responses: { 200: { description: "The answer", schema: VatCheckSchema } },
  },
  {
    method: "DELETE",
    path: "/api/vat",
    operationId: "removeVat",
    tag: "Billing",
    summary: "Forget your VAT number",
    access: "user",
    errors: [403],
    responses: { 204: noContent },
  },

  // Meta
  {
    method: "GET",
    path: "/api/version",
    operationId: "version",
    tag: "Meta",
    summary: "The server's version",
    access: "public",
    responses: {
      200: {
        description: "The version",
        schema: z.object({
          major: z.number().int(),
          minor: z.number().int(),
          patch: z.number().int(),
          release: z.string(),
        }),
        example: { major: 1, minor: 4, patch: 0, release: "2026.11.22" },
      },
    },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    operationId: "openApiDocument",
    tag: "Meta",
    summary: "This document",
    access: "public",
    responses: { 200: { description: "OpenAPI 3.1", schema: z.object({ openapi: z.string() }).loose() } },
  },
];

/** Routes under /api that are deliberately not documented. */
export const UNDOCUMENTED_API_ROUTES: Record<string, string> = {
  "GET /api/test/slow": "tests only (TEST_SLOW_ROUTE_MS)",
};
