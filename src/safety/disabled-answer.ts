// What /go answers for a disabled link: crawlers a neutral card ("Link disabled", none of the owner's title,
// description or image, noindex), people a warning page naming the destination as text (unless the link is behind a
// password: its destination is for those who know it), never a redirect.
// Neither is counted as a view (src/go/go-answer.ts answers before recording one).
import { escapeHtml } from "../http/escape.ts";
import { isPasswordProtected } from "../rules/model.ts";
import { page, pageHeaders } from "./page.ts";

const HEADERS = pageHeaders("");

export const NEUTRAL_TITLE = "Link disabled";
const NEUTRAL_TEXT = "This short link has been disabled.";

/** The same neutral card for every platform. */
export const NEUTRAL_CARD = page(
  [
    `<title>${NEUTRAL_TITLE}</title>`,
    `<meta property="og:title" content="${NEUTRAL_TITLE}">`,
    `<meta property="og:description" content="${NEUTRAL_TEXT}">`,
    `<meta name="twitter:card" content="summary">`,
    `<meta name="twitter:title" content="${NEUTRAL_TITLE}">`,
    `<meta name="description" content="${NEUTRAL_TEXT}">`,
  ].join("\n"),
  `<h1>${NEUTRAL_TITLE}</h1>\n<p>${NEUTRAL_TEXT}</p>`,
);

/** `targetUrl`: null for a link behind a password. */
export function warningPage(targetUrl: string | null, inspectUrl: string): string {
  return page(
    `<title>Warning: ${NEUTRAL_TITLE}</title>`,
    `<h1>Warning: this link has been disabled</h1>
<p>This short link was disabled because its destination was reported or listed as unsafe (phishing, malware or abuse). We do not send you there.</p>
${
  targetUrl === null
    ? `<p>The link is protected by a password, so its destination is not shown. <a href="${escapeHtml(inspectUrl)}">Details about this link</a>.</p>`
    : `<p>The destination was: <code style="word-break:break-all">${escapeHtml(targetUrl)}</code></p>
<p>If you still want to go there, copy the address yourself and be careful what you enter on that site. <a href="${escapeHtml(inspectUrl)}">Details about this link</a>.</p>`
}`,
  );
}

export function disabledAnswer(
  link: { targetUrl: string; userSlug: string; linkSlug: string; goRules: string | null },
  isBot: boolean,
  isGet: boolean,
  extraHeaders: Record<string, string>,
): Response {
  const body = isBot
    ? NEUTRAL_CARD
    : warningPage(
        isPasswordProtected(link.goRules) ? null : link.targetUrl,
        `/go/${encodeURIComponent(link.userSlug)}/${encodeURIComponent(link.linkSlug)}+`,
      );
  return new Response(isGet ? body : null, { status: 200, headers: { ...HEADERS, ...extraHeaders } });
}
