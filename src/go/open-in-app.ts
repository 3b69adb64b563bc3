// A device rule's app (docs/decisions/0060): people on iOS or Android are sent to the app's URL (a custom scheme),
// with the rule's https target as the fallback. In-app browsers that hand no link to another app (Instagram,
// Facebook, TikTok, LinkedIn) get a small "Open in the app" page instead of a dead end. No script on any of it.
import { boundedMemo } from "../bounded-memo.ts";
import { escapeHtml } from "../http/escape.ts";

/** Distinct User-Agents remembered, as for the device classifier. */
const MEMO_LIMIT = 10_000;

/**
 * The in-app browsers of Instagram, Facebook (and Messenger), TikTok and LinkedIn, by the marks their User-Agents
 * carry: they open a custom scheme link only when the person taps it, and some not even then.
 */
const IN_APP = /Instagram|FBAN\/|FBAV\/|FB_IAB|FBIOS|FB4A|musical_ly|BytedanceWebview|TikTok|LinkedInApp/;

export const isInAppBrowser = (userAgent: string): boolean => IN_APP.test(userAgent);
export const createInAppBrowserCheck = (): ((userAgent: string) => boolean) => boundedMemo(MEMO_LIMIT, isInAppBrowser);

/**
 * Android's way to open an app with a fallback: `intent://…#Intent;scheme=…;S.browser_fallback_url=…;end`. The
 * browser opens the app that handles the scheme, or the fallback when none does. The app URL holds no `#`
 * (src/rules/model.ts appUrlProblem).
 */
export function androidIntentUrl(appUrl: string, fallbackUrl: string): string {
  const colon = appUrl.indexOf(":");
  const scheme = appUrl.slice(0, colon).toLowerCase();
  const rest = appUrl.slice(colon + 1);
  return `intent:${rest}#Intent;scheme=${scheme};S.browser_fallback_url=${encodeURIComponent(fallbackUrl)};end`;
}

/**
 * The "Open in the app" page: the app's link first (a tap, which in-app browsers honour when they honour any), the
 * fallback second. `autoOpen`: also try the app at once (Safari asks to open it, or says it cannot, and the page
 * stays with its fallback link).
 */
export function openInAppPage(title: string, openUrl: string, fallbackUrl: string, autoOpen: boolean): string {
  const name = escapeHtml(title);
  const open = escapeHtml(openUrl);
  const fallback = escapeHtml(fallbackUrl);
  const refresh = autoOpen ? `<meta http-equiv="refresh" content="0;url=${open}">` : "";
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">${refresh}<title>${name}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;text-align:center;color:#111}a{display:block;margin:1rem 0;padding:.8rem;border-radius:.5rem;text-decoration:none}.app{background:#111;color:#fff}.web{border:1px solid #ccc;color:#111}p{color:#555;font-size:.9rem}</style></head><body><main><h1>${name}</h1><a class="app" href="${open}">Open in the app</a><a class="web" href="${fallback}">Continue without the app</a><p>Nothing happens? Open this link in your browser from this app's menu.</p></main></body></html>`;
}
