// Auto-fill (POST /api/links/metadata): a starting title, description, image and site name from the target page,
// fetched through the safe fetcher. Open Graph over Twitter cards over <title>/<meta name=description>; entities
// decoded, whitespace collapsed, cut to the link form's limits; the image made absolute against <base href> and
// the final URL after redirects.
import { decodeHTML } from "entities";
import { z } from "zod";
import { refused, type SafeFetcher } from "../safe-fetch/fetcher.ts";
import { DESCRIPTION_MAX, TITLE_MAX, URL_MAX, isHttpUrl } from "./model.ts";
import { safeHttpUrl } from "./url.ts";
import type { PageMetadataJson } from "./wire.ts";

/**
 * Fetches of outside pages and images and decodes of uploaded ones, per user and minute: auto-fill, image import,
 * and a create, update or lint with an image file all count (decision 0043).
 */
export const FETCHES_PER_MINUTE = 30;

export const MetadataRequest = z.object({
  url: z
    .string("Please enter a valid URL")
    .trim()
    .max(URL_MAX, "URL must be 2048 characters or less")
    .refine(isHttpUrl, "Please enter a valid URL"),
});

const SITE_NAME_MAX = 100;

/** The first value each meta key had; `<title>`'s text and `<base href>` under "<title>" and "<base>". */
type Found = Map<string, string>;

const clean = (value: string) => decodeHTML(value).replace(/\s+/g, " ").trim();

/** At most `max` characters, cut at a word when one ends near the limit, with an ellipsis when cut. */
export function fitTo(value: string, max: number): string {
  if (value.length <= max) return value;
  let cut = value.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(" ");
  if (space >= max * 0.6) cut = cut.slice(0, space);
  return `${cut.trimEnd()}…`;
}

async function scan(html: string): Promise<Found> {
  const found: Found = new Map();
  const keep = (key: string, value: string | null) => {
    if (value === null || found.has(key)) return;
    const cleaned = clean(value);
    if (cleaned !== "") found.set(key, cleaned);
  };
  let title: string | null = null;
  let titleDone = false;
  const rewriter = new HTMLRewriter()
    .on("meta", {
      element(element) {
        const key = (element.getAttribute("property") ?? element.getAttribute("name"))?.trim().toLowerCase();
        if (key) keep(key, element.getAttribute("content"));
      },
    })
    .on("base", {
      element(element) {
        keep("<base>", element.getAttribute("href"));
      },
    })
    .on("title", {
      // The first <title> only (an <svg> may hold others further on).
      text(chunk) {
        if (titleDone) return;
        title = (title ?? "") + chunk.text;
        if (chunk.lastInTextNode) titleDone = true;
      },
    });
  await rewriter.transform(new Response(html)).text();
  if (title !== null) keep("<title>", title);
  return found;
}

/** An image URL made absolute: http(s) only, else null. */
function absoluteImage(found: Found, pageUrl: string): string | null {
  const image =
    found.get("og:image") ??
    found.get("og:image:url") ??
    found.get("og:image:secure_url") ??
    found.get("twitter:image") ??
    found.get("twitter:image:src");
  if (!image) return null;
  const baseHref = found.get("<base>");
  const base = baseHref && URL.canParse(baseHref, pageUrl) ? new URL(baseHref, pageUrl).href : pageUrl;
  if (!URL.canParse(image, base)) return null;
  const absolute = safeHttpUrl(new URL(image, base).href);
  return absolute && absolute.length <= URL_MAX ? absolute : null;
}

export async function extractMetadata(html: string, pageUrl: string): Promise<PageMetadataJson> {
  const found = await scan(html);
  const first = (...keys: string[]) => keys.map((key) => found.get(key)).find((value) => value !== undefined) ?? null;
  const title = first("og:title", "twitter:title", "<title>");
  const description = first("og:description", "twitter:description", "description");
  const siteName = first("og:site_name");
  return {
    title: title && fitTo(title, TITLE_MAX),
    description: description && fitTo(description, DESCRIPTION_MAX),
    imageUrl: absoluteImage(found, pageUrl),
    siteName: siteName && fitTo(siteName, SITE_NAME_MAX),
  };
}

/** Fetches the page (refusals are 422s saying why) and reads its card fields. */
export async function pageMetadata(fetcher: SafeFetcher, url: string): Promise<PageMetadataJson> {
  const page = await fetcher.fetchPage(url);
  try {
    return await extractMetadata(page.html, page.url);
  } catch {
    // Whatever the page holds, the answer is a refusal saying so, not a 5xx.
    throw refused("The page could not be read as HTML");
  }
}
