// The page a crawler gets: every Open Graph and Twitter tag a card needs, all values escaped, no script,
// and no meta refresh (some crawlers follow it and would preview the target instead).
import { escapeHtml } from "../http/escape.ts";
import { shortUrlOf } from "../links/url.ts";
import type { GoLink } from "./link-cache.ts";

function absolute(url: string, publicUrl: string): string {
  return url.startsWith("/") ? `${publicUrl}${url}` : url;
}

export type PreviewOptions = {
  /** The version of the address fetched: og:url and the canonical link name it (from 2 on; 1 is the plain one). */
  version?: number;
};

export function renderPreviewPage(link: GoLink, publicUrl: string, options: PreviewOptions = {}): string {
  const shortUrl = shortUrlOf(publicUrl, link.userSlug, link.linkSlug, options.version);
  const title = escapeHtml(link.title);
  const description = escapeHtml(link.description);
  const target = escapeHtml(link.targetUrl);
  const image = link.imageUrl ? escapeHtml(absolute(link.imageUrl, publicUrl)) : null;
  const meta = (attr: "property" | "name", key: string, value: string) => `<meta ${attr}="${key}" content="${value}">`;
  const tags = [
    meta("name", "description", description),
    meta("name", "robots", "noindex"),
    meta("property", "og:type", "website"),
    meta("property", "og:site_name", "LinkPrev"),
    meta("property", "og:url", escapeHtml(shortUrl)),
    meta("property", "og:title", title),
    meta("property", "og:description", description),
    ...(image
      ? [
          meta("property", "og:image", image),
          ...(link.imageWidth && link.imageHeight
            ? [meta("property", "og:image:width", String(link.imageWidth)), meta("property", "og:image:height", String(link.imageHeight))]
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
<p><a href="${target}" rel="noopener nofollow">Continue to ${target}</a></p>
</main>
</body>
</html>`;
}
