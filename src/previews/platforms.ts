// What each platform LinkPrev detects (src/go/classify.ts) does with a card: image sizes, text cuts,
// caches and how to refresh. One place for the lint rules, the editor's mockups, the CLI and later the /go
// variants. Pure data and tiny helpers, no server imports: the editor island may import it.
// Sources: the platforms' own documentation and observed behaviour, as summarised in docs/decisions/0013. "official" =
// the platform's own docs; "3rd" = third-party measurements or guides; "inference" = ours.

export type PlatformId =
  | "x"
  | "facebook"
  | "linkedin"
  | "slack"
  | "discord"
  | "whatsapp"
  | "telegram"
  | "imessage"
  | "mastodon"
  | "bluesky"
  | "pinterest"
  | "reddit"
  | "skype"
  | "teams"
  | "apple"
  | "google"
  | "bing";

export type RefreshKind = "debugger" | "bot" | "new-version" | "api";

/** How an owner gets a platform to show the edited card. `url` has `{url}` for the URL-encoded short URL. */
export type Refresh = { kind: RefreshKind; url: string | null; note: string };

/** A text cut: after `max` characters (`unit: "chars"`) or UTF-8 bytes (`unit: "bytes"`); null = not shown. */
export type TextCut = { max: number; unit: "chars" | "bytes" } | null;

export type PlatformFacts = {
  id: PlatformId;
  name: string;
  /** Draws a link card for people (search engines and Applebot do not). */
  drawsCards: boolean;
  /** The image shape of the usual (large) card, width:height; null when unknown. */
  imageRatio: number | null;
  /** The rendition that suits it best. */
  bestImage: { width: number; height: number } | null;
  /** Below this the large card is not used (smaller image or none). */
  largeCardMin: { width: number; height: number } | null;
  /** Below this the image is not shown at all. */
  minImage: { width: number; height: number } | null;
  /** Heaviest image file it takes, in bytes; and a softer "reliable" ceiling where reported. */
  maxImageBytes: number | null;
  reliableImageBytes: number | null;
  title: TextCut;
  description: TextCut;
  /** Lines of title it shows, where that is the documented limit (WhatsApp: "at most 2 lines"). */
  titleLines: number | null;
  /** What it shows of the card, in a few words. */
  shows: string;
  /** How long it keeps a card, as far as known; ms when a number is known. */
  cache: { note: string; ms: number | null };
  refresh: Refresh;
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KB = 1000;
const MB = 1024 * 1024;

/** The 1.91:1 shape (1200×630) most platforms draw and LinkPrev normalises to. */
export const WIDE_RATIO = 1200 / 630;
/** A new path version of the short URL: the universal refresh (og:url changes too; docs/decisions/0007). */
const NEW_VERSION: Refresh = {
  kind: "new-version",
  url: null,
  note: "No refresh tool: share a new version of the short URL.",
};

export const PLATFORMS: Readonly<Record<PlatformId, PlatformFacts>> = {
  x: {
    id: "x",
    name: "X",
    drawsCards: true,
    // summary_large_image: 2:1, min 300×157, max 4096×4096, < 5 MB, no SVG [official, X cards docs as archived]
    imageRatio: 2,
    bestImage: { width: 1200, height: 600 },
    largeCardMin: { width: 300, height: 157 },
    // summary card: 1:1, min 144×144 [official, archived]
    minImage: { width: 144, height: 144 },
    maxImageBytes: 5 * MB,
    reliableImageBytes: null,
    // ~2024: headline back as an overlay on the image, cut if long; keep key words in the first ~40–50 chars
    // [3rd: designrush, 9to5; inference]. Description not shown on large cards [3rd].
    title: { max: 50, unit: "chars" },
    description: null,
    titleLines: 1,
    shows: "image with the title overlaid (cut when long) and the domain below; no description",
    // "re-crawl roughly every seven days"; "There is no API for clearing the card crawler cache" [official forum]
    cache: { note: "re-crawled about every 7 days; no way to clear it", ms: 7 * DAY },
    refresh: NEW_VERSION,
  },
  facebook: {
    id: "facebook",
    name: "Facebook",
    drawsCards: true,
    // min 200×200, ≤ 8 MB; ≥ 600×315 for the large layout, 1200×630 best, ≈1.91:1 [official: sharing/webmasters/images]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: { width: 600, height: 315 },
    minImage: { width: 200, height: 200 },
    maxImageBytes: 8 * MB,
    reliableImageBytes: null,
    // og:title shown "without any branding" [official]; no published cut
    title: null,
    description: null,
    titleLines: null,
    shows: "large image, domain, title and description",
    // "the standard 24 hour update period"; images cached per image URL [official best-practices, FAQ]
    cache: { note: "about 24 hours; images cached per image URL", ms: DAY },
    // Sharing Debugger → "Scrape Again" (needs a Facebook login) [official]
    refresh: {
      kind: "debugger",
      url: "https://developers.facebook.com/tools/debug/?q={url}",
      note: "Open the Sharing Debugger and press Scrape Again.",
    },
  },
  linkedin: {
    id: "linkedin",
    name: "LinkedIn",
    drawsCards: true,
    // 1200×627, 1.91:1, ≤ 5 MB [3rd, quoting LinkedIn help a521928]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 627 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: 5 * MB,
    reliableImageBytes: null,
    // since Nov 2023–2024 organic posts show a small thumbnail left of the title; no description [3rd; Dub's mockup]
    title: null,
    description: null,
    titleLines: null,
    shows: "small thumbnail left of the title and the domain; no description",
    // ~7 days [3rd, several guides]
    cache: { note: "about 7 days", ms: 7 * DAY },
    // Post Inspector (needs a LinkedIn login) [3rd]
    refresh: {
      kind: "debugger",
      url: "https://www.linkedin.com/post-inspector/inspect/{url}",
      note: "Inspect the URL in the Post Inspector.",
    },
  },
  slack: {
    id: "slack",
    name: "Slack",
    drawsCards: true,
    // reads OG, then Twitter tags; page and image fetched separately [3rd]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: "site name, title, description and the image",
    // ~30 min, global (Slack support, quoted) [3rd]; image proxy cached separately
    cache: { note: "about 30 minutes; the image proxy keeps images separately", ms: 30 * 60_000 },
    refresh: {
      ...NEW_VERSION,
      note: "No refresh tool: wait about 30 minutes, delete the message, or share a new version.",
    },
  },
  discord: {
    id: "discord",
    name: "Discord",
    drawsCards: true,
    // large image with twitter:card=summary_large_image (community, 2018) [3rd]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    // title cut at 67 + "…", description at 347, counted in UTF-8 bytes (one developer's measurements) [3rd]
    title: { max: 67, unit: "bytes" },
    description: { max: 347, unit: "bytes" },
    titleLines: null,
    shows: "title, description (both cut by UTF-8 bytes) and a large image",
    // undocumented: "assume cached forever" [3rd]
    cache: { note: "undocumented; assume forever", ms: null },
    refresh: NEW_VERSION,
  },
  whatsapp: {
    id: "whatsapp",
    name: "WhatsApp",
    drawsCards: true,
    // "300px or more in width with 4:1 width/height or less aspect ratio", "under 600KB" [official: WhatsApp
    // Business "Link Previews"]; ~300 KB the reliable ceiling [3rd]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: { width: 300, height: 0 },
    minImage: null,
    maxImageBytes: 600 * KB,
    reliableImageBytes: 300 * KB,
    // title bold, "at most 2 lines"; description "80 characters will suffice" [official]
    title: null,
    description: { max: 80, unit: "chars" },
    titleLines: 2,
    shows: "image, a two-line bold title and a short description",
    // device-side, undocumented; "no public debugger" [official]
    cache: { note: "kept on each phone; undocumented", ms: null },
    refresh: NEW_VERSION,
  },
  telegram: {
    id: "telegram",
    name: "Telegram",
    drawsCards: true,
    // no official numbers; the sender can switch large/small media [official Bot API]
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: "site name, title, description and the image (large or small, the sender chooses)",
    // updated "once in a while" — Telegram staff, zhukov/webogram#1216 [issue]
    cache: { note: "updated once in a while, depending on how often the URL is shared", ms: null },
    // @WebpageBot re-fetches a URL sent to it [official bot]; already-sent messages keep their card [3rd]
    refresh: {
      kind: "bot",
      url: "https://t.me/webpagebot",
      note: "Send the short URL to @WebpageBot; messages already sent keep their card.",
    },
  },
  imessage: {
    id: "imessage",
    name: "iMessage",
    drawsCards: true,
    // og:image "displayed at a fairly large size" [official: Apple TN2444]; fetched on the sender's device
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: "large image, title and domain; no description",
    cache: { note: "kept on each device; undocumented", ms: null },
    refresh: NEW_VERSION,
  },
  mastodon: {
    id: "mastodon",
    name: "Mastodon",
    drawsCards: true,
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: "image, title and description; every instance fetches the card itself",
    // re-fetched only after 14 days, per instance (maintainer in mastodon#30417) [issue]
    cache: { note: "14 days, per instance", ms: 14 * DAY },
    refresh: { ...NEW_VERSION, note: "No refresh tool (instances re-fetch after 14 days): share a new version." },
  },
  bluesky: {
    id: "bluesky",
    name: "Bluesky",
    drawsCards: true,
    imageRatio: WIDE_RATIO,
    bestImage: { width: 1200, height: 630 },
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: "image, title and description, fetched once when the post is written",
    // the card is stored in the post record → never refreshed [inference]
    cache: { note: "frozen in the post", ms: null },
    refresh: { ...NEW_VERSION, note: "Cards are frozen in posts: share a new version in a new post." },
  },
  pinterest: other("pinterest", "Pinterest", true),
  reddit: other("reddit", "Reddit", true),
  skype: other("skype", "Skype", true),
  teams: other("teams", "Microsoft Teams", true),
  apple: other("apple", "Applebot", false),
  google: other("google", "Google", false),
  bing: other("bing", "Bing", false),
};

/** A platform the research has no card facts for: name and refresh only. */
function other(id: PlatformId, name: string, drawsCards: boolean): PlatformFacts {
  return {
    id,
    name,
    drawsCards,
    imageRatio: null,
    bestImage: null,
    largeCardMin: null,
    minImage: null,
    maxImageBytes: null,
    reliableImageBytes: null,
    title: null,
    description: null,
    titleLines: null,
    shows: drawsCards ? "a link card (no researched facts)" : "no card (a search or indexing crawler)",
    cache: { note: "unknown", ms: null },
    refresh: NEW_VERSION,
  };
}

/** Every platform, in the order the product lists them: the eight with mockups first. */
export const PLATFORM_IDS = Object.keys(PLATFORMS) as PlatformId[];
/** The platforms the editor draws a mockup for (docs/decisions/0013). */
export const MOCKUP_PLATFORMS: readonly PlatformId[] = [
  "x",
  "facebook",
  "linkedin",
  "slack",
  "discord",
  "whatsapp",
  "telegram",
  "imessage",
];

export const platformName = (id: string): string =>
  (PLATFORMS as Record<string, PlatformFacts | undefined>)[id]?.name ?? id;

/** UTF-8 length of a string (Discord cuts by bytes). */
export const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

/** The length of `text` in the unit of a cut. */
export const measure = (text: string, unit: "chars" | "bytes"): number =>
  unit === "bytes" ? utf8Bytes(text) : [...text].length;

/** Whether a platform cuts `text` under `cut`. */
export const isCut = (text: string, cut: TextCut): boolean => cut !== null && measure(text, cut.unit) > cut.max;

/**
 * `text` as a platform shows it: cut to `cut.max` characters or bytes (never inside a character) plus "…".
 * Unchanged when it fits or the platform does not cut.
 */
export function truncate(text: string, cut: TextCut): string {
  if (!isCut(text, cut)) return text;
  const { max, unit } = cut!;
  let out = "";
  let used = 0;
  for (const char of text) {
    const size = unit === "bytes" ? utf8Bytes(char) : 1;
    if (used + size > max) break;
    out += char;
    used += size;
  }
  return `${out.trimEnd()}…`;
}

/** A platform's refresh link for a short URL (null for bots without a URL parameter and new versions). */
export function refreshUrl(id: PlatformId, shortUrl: string): string | null {
  const template = PLATFORMS[id].refresh.url;
  return template?.includes("{url}") ? template.replace("{url}", encodeURIComponent(shortUrl)) : template;
}

/** Platforms (ids) whose fact `pick` is set, in PLATFORM_IDS order. */
export const platformsWith = (pick: (facts: PlatformFacts) => unknown): PlatformId[] =>
  PLATFORM_IDS.filter((id) => Boolean(pick(PLATFORMS[id])));
