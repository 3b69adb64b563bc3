// The page a crawler gets: every Open Graph and Twitter tag a card needs, all values escaped, no script,
// and no meta refresh (some crawlers follow it and would preview the target instead). One page per card variant:
// its image rendition and text override; og:url and canonical are the same for all (one object to Facebook).
import { escapeHtml } from "../http/escape.ts";
import { shortUrlOf } from "../links/url.ts";
import { isPasswordProtected } from "../rules/model.ts";
import { RENDITIONS, VARIANT_RENDITION, type CardVariant, type RenditionId } from "../previews/variants.ts";
import type { GoLink } from "../link-cache/held-link.ts";

function absolute(url: string, publicUrl: string): string {
  return url.startsWith("/") ? `${publicUrl}${url}` : url;
}

export type PreviewOptions = {
  /** The version of the address fetched: og:url and the canonical link name it (from 2 on; 1 is the plain one). */
  version?: number;
  /** The card variant of the platform fetching (src/previews/variants.ts): its image rendition and text override. */
  variant?: CardVariant;
  /** The custom-domain address fetched (https://links.acme.com/summer): og:url and canonical name it instead. */
  shortUrl?: string;
};

/** The image a variant shows and its size: its rendition, or the link's one image when it has none (external, or from before variants). */
function variantImage(
  link: GoLink,
  variant: CardVariant,
): { url: string; width: number | null; height: number | null } | null {
  if (!link.imageUrl) return null;
  const rendition = VARIANT_RENDITION[variant];
  const url = renditionUrl(link, rendition);
  return url
    ? { url, ...RENDITIONS[rendition] }
    : { url: link.imageUrl, width: link.imageWidth, height: link.imageHeight };
}

/** The link's own cut of `rendition`, if it has one (the wide one is its image itself). */
function renditionUrl(link: GoLink, rendition: RenditionId): string | null {
  return rendition === "square" ? link.imageSquareUrl : rendition === "x" ? link.imageXUrl : null;
}

/** The title the link sets for `variant` alone (the others show its title), or null. */
const ownTitle = (link: GoLink, variant: CardVariant): string | null => (variant === "x" && link.xTitle) || null;
/** The description the link sets for `variant` alone (the others show its description), or null. */
const ownDescription = (link: GoLink, variant: CardVariant): string | null =>
  (variant === "whatsapp" && link.whatsappDescription) || null;

/**
 * The variant whose page `link` shows to crawlers of `variant`: the page depends only on the image rendition and the
 * text overrides the link has, so a link without them renders one page for every platform, kept once (src/go/card-answer.ts).
 */
export function pageVariant(link: GoLink, variant: CardVariant): CardVariant {
  if (ownTitle(link, variant) || ownDescription(link, variant)) return variant;
  const rendition = VARIANT_RENDITION[variant];
  return link.imageUrl && renditionUrl(link, rendition) ? rendition : "wide";
}

export function renderPreviewPage(link: GoLink, publicUrl: string, options: PreviewOptions = {}): string {
  const variant = options.variant ?? "wide";
  const shortUrl = options.shortUrl ?? shortUrlOf(publicUrl, link.userSlug, link.linkSlug, options.version);
  const title = escapeHtml(ownTitle(link, variant) || link.title);
  const description = escapeHtml(ownDescription(link, variant) || link.description);
  // Behind a password the card is the owner's to share, the destination is not (rendered once per card: no cost per fetch).
  const target = isPasswordProtected(link.goRules) ? null : escapeHtml(link.targetUrl);
  const shown = variantImage(link, variant);
  const image = shown && escapeHtml(absolute(shown.url, publicUrl));
  const meta = (attr: "property" | "name", key: string, value: string) => `<meta ${attr}="${key}" content="${value}">`;
  const tags = [
    meta("name", "description", description),
    meta("name", "robots", "noindex"),
    meta("property", "og:type", "website"),
    meta("property", "og:site_name", "LinkPrev"),
    meta("property", "og:url", escapeHtml(shortUrl)),
    meta("property", "og:title", title),
    meta("property", "og:description", description),
    ...(shown && image
      ? [
          meta("property", "og:image", image),
          ...(shown.width && shown.height
            ? [
                meta("property", "og:image:width", String(shown.width)),
                meta("property", "og:image:height", String(shown.height)),
              ]
            : []),
          meta("property", "og:image:alt", title),
        ]
      : []),
    meta("name", "twitter:card", image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", title),
    meta("name", "twitter:description", description),
    ...(image ? [meta("name", "twitter:image", image)] : []),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${tags.join("\n")}
<link rel="canonical" href="${escapeHtml(shortUrl)}">
</head>
<body>
<main>
<h1>${title}</h1>
<p>${description}</p>
${target === null ? "<p>This link is protected by a password.</p>" : `<p><a href="${target}" rel="noopener nofollow">Continue to ${target}</a></p>`}
</main>
</body>
</html>`;
}
