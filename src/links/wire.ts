// What the link API answers, as zod schemas and the JSON types they describe: the OpenAPI document is generated
// from them, the CLI and the islands type their responses with them, and src/links/responses.ts checks each
// against the service that produces it. Pure zod and shared models only: islands import it.
import { z } from "zod";
import { PLATFORM_IDS, type PlatformId } from "../previews/platforms.ts";
import { RULES } from "../previews/lint.ts";
import { OtherBotsSchema, VerificationCountsSchema } from "./fetches-wire.ts";
import { QrStyleSchema } from "./qr-style-model.ts";

const timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date and time");
const platformId = z.enum(PLATFORM_IDS as [PlatformId, ...PlatformId[]]);

export const LintWarningSchema = z
  .object({
    rule: z.string().describe(`Stable id, clients may key on it: ${RULES.join(", ")}`),
    severity: z.enum(["info", "warning", "error"]),
    platforms: z.array(platformId),
    message: z.string(),
  })
  .meta({ id: "LintWarning" });

export const LinkSchema = z
  .object({
    id: z.number().int(),
    linkSlug: z.string(),
    targetUrl: z.string(),
    title: z.string(),
    description: z.string(),
    imageUrl: z.string().nullable(),
    imageSource: z.string().nullable().describe("upload, ai, or null for an image URL or none"),
    viewsBot: z.number().int().describe("Crawler fetches, all time"),
    viewsHuman: z.number().int().describe("People's visits, all time"),
    uniqueHumans: z
      .number()
      .int()
      .describe("Daily unique visitors, summed over the days (a person counts once per day)"),
    scans: z.number().int().describe("People's visits through the QR code (?qr=1), all time"),
    createdAt: timestamp,
    shortUrl: z
      .string()
      .describe(
        "The plain short address: {PUBLIC_URL}/go/{userSlug}/{linkSlug}, or https://{domain}/{linkSlug} on a custom domain (scheme from PUBLIC_URL)",
      ),
    domain: z
      .string()
      .nullable()
      .describe(
        "The custom domain the link is served on (null: the instance host, which serves /go/{userSlug}/{linkSlug} for every link)",
      ),
    awaitingDomain: z
      .string()
      .nullable()
      .describe(
        "The link's custom domain while it serves nothing yet (pending, or invalid): until it is verified, shortUrl and currentShortUrl are the instance host's address",
      ),
    version: z
      .number()
      .int()
      .min(1)
      .describe("The newest version of the short URL (POST /api/links/{id}/versions); 1: never re-issued"),
    currentShortUrl: z
      .string()
      .describe(
        "The address to share now: the newest version's ({shortUrl}/{version}) from version 2 on, else shortUrl",
      ),
    sourceImage: z
      .object({
        width: z.number().int(),
        height: z.number().int(),
        bytes: z.number().int(),
        url: z.string().nullable().describe("The kept upright source the focal point is picked on"),
      })
      .nullable()
      .describe("The uploaded image as received"),
    focalX: z.number().min(0).max(1).describe("Focal point of the crops, 0 = left edge"),
    focalY: z.number().min(0).max(1).describe("Focal point of the crops, 0 = top edge"),
    images: z
      .object({ wide: z.string().nullable(), square: z.string().nullable(), x: z.string().nullable() })
      .describe(
        "The image each platform gets: wide 1200×630, square 1200×1200 (WhatsApp, Telegram), X 1200×600; null without an image",
      ),
    variants: z
      .object({
        x: z.object({ title: z.string().nullable() }),
        whatsapp: z.object({ description: z.string().nullable() }),
      })
      .describe("Per-platform text overrides (null: the link's own)"),
    warnings: z.array(LintWarningSchema),
    expiresAt: timestamp
      .nullable()
      .describe("After this instant people go to expiredUrl (else a 410 page) and crawlers get a neutral expired card"),
    maxClicks: z.number().int().nullable().describe("People's visits allowed; the next person finds the link expired"),
    visitsUsed: z
      .number()
      .int()
      .describe("People's visits counted against maxClicks so far; at maxClicks the link is expired (0 without a cap)"),
    expiredUrl: z
      .string()
      .nullable()
      .describe("Where people go once the link has expired (null: a small 'This link has expired' page)"),
    hasPassword: z
      .boolean()
      .describe("People must enter the password (write-only: set it with password) before they are sent on"),
    rules: z
      .array(
        z.object({
          when: z.union([
            z.object({ device: z.enum(["ios", "android", "desktop"]) }),
            z.object({ country: z.string().describe("ISO 3166 two-letter code") }),
          ]),
          targetUrl: z.string(),
          appUrl: z
            .string()
            .optional()
            .describe("An ios or android device rule's app (a custom scheme); targetUrl is then its https fallback"),
        }),
      )
      .describe("Targets by device or country, first match wins, else targetUrl"),
    health: z
      .object({
        status: z.enum(["ok", "broken", "unchecked"]).describe("broken: the target failed two checks in a row"),
        checkedAt: timestamp.nullable(),
        httpStatus: z.number().int().nullable().describe("The last check's HTTP status (null: no answer)"),
        finalUrl: z.string().nullable().describe("Where the target's redirects ended"),
        failedUrl: z
          .string()
          .nullable()
          .describe(
            "The target the last failed check was about: targetUrl or a rule's targetUrl (null while every target answers)",
          ),
      })
      .describe("The last check of the target (LINK_HEALTH_EVERY_MS)"),
    status: z
      .enum(["active", "disabled"])
      .describe("disabled: crawlers get a neutral card and people a warning page, never this card"),
    disabledReason: z
      .string()
      .nullable()
      .describe(
        "Why the link is disabled, naming the source (a threat feed, a report, the operator); null when active",
      ),
    deletedAt: timestamp.optional().describe("Only on deleted links"),
    qrStyle: QrStyleSchema.nullable().describe("The link's own QR style (null: the workspace's default)"),
    oldAddresses: z
      .array(
        z.object({
          id: z.number().int().describe("For DELETE /api/links/{id}/old-addresses/{addressId}"),
          shortUrl: z.string().describe("The earlier short address, as the link was shown there"),
          movedAt: timestamp.describe("When the link left it (a new slug, or another domain)"),
        }),
      )
      .optional()
      .describe(
        "Only on one link's answers (GET and PUT /api/links/by-slug/{linkSlug}, POST /api/links): the addresses the link had before a rename or a move to another domain, oldest first. Each still answers for the link (people redirected, crawlers given the card, views counted to it) until dropped",
      ),
  })
  .meta({
    id: "Link",
    example: {
      id: 42,
      linkSlug: "launch",
      targetUrl: "https://example.com/blog/launch",
      title: "We launched",
      description: "Everything new in version 2",
      imageUrl: null,
      imageSource: null,
      viewsBot: 12,
      viewsHuman: 340,
      uniqueHumans: 290,
      scans: 17,
      createdAt: "2026-11-20T09:30:00.000Z",
      shortUrl: "https://linkprev.example/go/ana/launch",
      domain: null,
      awaitingDomain: null,
      version: 2,
      currentShortUrl: "https://linkprev.example/go/ana/launch/2",
      sourceImage: null,
      focalX: 0.5,
      focalY: 0.5,
      images: { wide: null, square: null, x: null },
      variants: { x: { title: null }, whatsapp: { description: null } },
      warnings: [
        {
          rule: "no-image",
          severity: "warning",
          platforms: ["x", "facebook"],
          message: "No image: most platforms show a small card",
        },
      ],
      expiresAt: null,
      maxClicks: null,
      visitsUsed: 0,
      expiredUrl: null,
      hasPassword: false,
      rules: [{ when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" }],
      health: {
        status: "ok",
        checkedAt: "2026-11-24T03:00:00.000Z",
        httpStatus: 200,
        finalUrl: "https://example.com/blog/launch",
      },
      status: "active",
      disabledReason: null,
      qrStyle: null,
    },
  });

export const LinkStatsSchema = z.object({
  totalLinks: z.number().int(),
  totalViews: z.number().int(),
  humanViews: z.number().int(),
  botViews: z.number().int(),
  uniqueHumans: z.number().int().describe("Daily unique visitors, summed over days and links"),
  scans: z.number().int().describe("QR code scans"),
});

export const SlugAvailabilitySchema = z.object({ available: z.boolean(), message: z.string() });

export const LintResultSchema = z.object({ warnings: z.array(LintWarningSchema) });

export const LinkViewsSchema = z.object({
  days: z
    .array(
      z.object({
        date: z.iso.date(),
        human: z.number().int(),
        bot: z.number().int(),
        uniqueHumans: z.number().int().describe("Different people that day"),
        scans: z.number().int(),
      }),
    )
    .describe("One entry per day, oldest first, today last"),
  platforms: z
    .array(z.object({ platform: z.string(), count: z.number().int() }))
    .describe("Crawler fetches by platform, all time"),
});

export const LinkPlatformsSchema = z.object({
  cardUpdatedAt: timestamp,
  platforms: z.array(
    z.object({
      platform: platformId,
      name: z.string(),
      fetches: z.number().int(),
      ...VerificationCountsSchema.shape,
      lastFetchedAt: timestamp.nullable(),
      stale: z.boolean().describe("Last fetched before the card last changed: it may still show the old card"),
      cacheNote: z.string(),
      refresh: z.object({
        kind: z.enum(["debugger", "bot", "new-version", "api"]),
        url: z.string().nullable(),
        note: z.string(),
        endpoint: z
          .object({ method: z.literal("POST"), path: z.string() })
          .nullable()
          .describe("For new-version: the API call that issues one"),
      }),
      scrape: z
        .object({ at: timestamp, ok: z.boolean(), message: z.string() })
        .nullable()
        .optional()
        .describe("Facebook only: the last re-scrape LinkPrev asked for (FACEBOOK_APP_ID), null if none"),
    }),
  ),
  bots: OtherBotsSchema,
});

export const LinkVersionSchema = z
  .object({
    version: z.number().int().min(2),
    shortUrl: z.string().describe("{PUBLIC_URL}/go/{userSlug}/{linkSlug}/{version}"),
  })
  .meta({ id: "LinkVersion", example: { version: 2, shortUrl: "https://linkprev.example/go/ana/launch/2" } });

export const PageMetadataSchema = z
  .object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable().describe("Absolute; offer it, then send it as imageImportUrl"),
    siteName: z.string().nullable(),
  })
  .meta({
    id: "PageMetadata",
    example: {
      title: "We launched",
      description: "Everything new in version 2",
      imageUrl: "https://example.com/cover.png",
      siteName: "Example",
    },
  });

/** A link as the API sends it (dates as ISO strings). */
export type LinkJson = z.output<typeof LinkSchema>;
export type SlugAvailabilityJson = z.output<typeof SlugAvailabilitySchema>;
/** A link's visits per day and its crawler fetches by platform (GET /api/links/:id/views). */
export type LinkViewsJson = z.output<typeof LinkViewsSchema>;
export type LinkPlatformsJson = z.output<typeof LinkPlatformsSchema>;
export type LinkVersionJson = z.output<typeof LinkVersionSchema>;
export type PageMetadataJson = z.output<typeof PageMetadataSchema>;
