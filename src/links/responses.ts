// What the link API answers, as zod schemas: the OpenAPI document is generated from them, and `tsc` checks each
// against the service that produces it (src/api-docs/json.ts).
import { z } from "zod";
import { sameShape, type SameShape } from "../api-docs/json.ts";
import { PLATFORM_IDS, type PlatformId } from "../previews/platforms.ts";
import { RULES } from "../previews/lint.ts";
import type { checkSlugAvailability, getLinkBySlug, linkPlatforms, linkStats, linkViews, lintLink } from "./service.ts";

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
    createdAt: timestamp,
    shortUrl: z.string().describe("The address to share: {PUBLIC_URL}/go/{userSlug}/{linkSlug}"),
    sourceImage: z.object({ width: z.number().int(), height: z.number().int(), bytes: z.number().int() }).nullable().describe("The uploaded image as received"),
    warnings: z.array(LintWarningSchema),
    deletedAt: timestamp.optional().describe("Only on deleted links"),
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
      createdAt: "2026-11-20T09:30:00.000Z",
      shortUrl: "https://linkprev.example/go/ana/launch",
      sourceImage: null,
      warnings: [{ rule: "no-image", severity: "warning", platforms: ["x", "facebook"], message: "No image: most platforms show a small card" }],
    },
  });

export const LinkStatsSchema = z.object({ totalLinks: z.number().int(), totalViews: z.number().int(), humanViews: z.number().int(), botViews: z.number().int() });

export const SlugAvailabilitySchema = z.object({ available: z.boolean(), message: z.string() });

export const LintResultSchema = z.object({ warnings: z.array(LintWarningSchema) });

export const LinkViewsSchema = z.object({
  days: z.array(z.object({ date: z.iso.date(), human: z.number().int(), bot: z.number().int() })).describe("One entry per day, oldest first, today last"),
  platforms: z.array(z.object({ platform: z.string(), count: z.number().int() })).describe("Crawler fetches by platform, all time"),
});

export const LinkPlatformsSchema = z.object({
  cardUpdatedAt: timestamp,
  platforms: z.array(
    z.object({
      platform: platformId,
      name: z.string(),
      fetches: z.number().int(),
      lastFetchedAt: timestamp.nullable(),
      stale: z.boolean().describe("Last fetched before the card last changed: it may still show the old card"),
      cacheNote: z.string(),
      refresh: z.object({ kind: z.enum(["debugger", "bot", "new-version", "api"]), url: z.string().nullable(), note: z.string() }),
    }),
  ),
});

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof getLinkBySlug>, typeof LinkSchema>>(true);
sameShape<SameShape<Returned<typeof linkStats>, typeof LinkStatsSchema>>(true);
sameShape<SameShape<Returned<typeof checkSlugAvailability>, typeof SlugAvailabilitySchema>>(true);
sameShape<SameShape<Returned<typeof lintLink>, typeof LintResultSchema>>(true);
sameShape<SameShape<Returned<typeof linkViews>, typeof LinkViewsSchema>>(true);
sameShape<SameShape<Returned<typeof linkPlatforms>, typeof LinkPlatformsSchema>>(true);
