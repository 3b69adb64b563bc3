// What the crawler fetch record's routes answer (docs/decisions/0066), as zod schemas and their JSON types: the
// record of a link (GET /api/links/:id/fetches) and the counts by verification the platforms route adds. Pure zod:
// islands import it.
import { z } from "zod";
import { idPageQuery } from "../http/wire.ts";

const timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date and time");

const VERIFICATIONS = ["verified", "unverified", "unverifiable"] as const;
const verification = z
  .enum(VERIFICATIONS)
  .describe(
    "verified: from the platform's published addresses or network; unverified: claims a platform whose network it is not from; unverifiable: the platform cannot be checked (iMessage, Slack, …)",
  );

/** A platform's crawler views by verification, all time. */
export const VerificationCountsSchema = z.object({
  verified: z.number().int(),
  unverified: z.number().int(),
  unverifiable: z.number().int(),
});

export const CrawlerFetchSchema = z.object({
  at: timestamp,
  platform: z.string(),
  verification,
  version: z.number().int().describe("The link version fetched (1: the plain address)"),
  rendition: z
    .string()
    .nullable()
    .describe("The card variant served (wide, square, x, whatsapp); null: a 302 (the platform's check of the link)"),
  status: z.number().int(),
  bytes: z.number().int(),
  ms: z.number().describe("Milliseconds the answer took to build"),
});

export const CrawlerFetchesSchema = z
  .object({
    items: z.array(CrawlerFetchSchema).describe("Newest first"),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next, older page; null at the end"),
  })
  .meta({
    id: "CrawlerFetches",
    example: {
      items: [
        {
          at: "2026-12-07T10:02:00.000Z",
          platform: "whatsapp",
          verification: "verified",
          version: 3,
          rendition: "whatsapp",
          status: 200,
          bytes: 2210,
          ms: 0.4,
        },
      ],
      nextCursor: null,
    },
  });

export const FetchesQuery = idPageQuery(20);

export type CrawlerFetchJson = z.output<typeof CrawlerFetchSchema>;
export type CrawlerFetchesJson = z.output<typeof CrawlerFetchesSchema>;

/** GET /api/links/:id/platforms' `bots`: every other fetcher of the link, by the name its views are counted under. */
export const OtherBotsSchema = z
  .array(
    z.object({
      kind: z
        .string()
        .describe(
          "A search engine or preview crawler without a platform panel (google, bing, apple, mastodon, …), or another bot's kind: tool, monitor, auditor, scanner, expander, seo, other",
        ),
      fetches: z.number().int(),
      lastFetchedAt: timestamp.nullable(),
      ...VerificationCountsSchema.shape,
    }),
  )
  .describe("Bots not listed in platforms, most fetches first; those that get the 302 are never verified");
