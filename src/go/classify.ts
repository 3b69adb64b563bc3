// Who is fetching a short URL: a crawler drawing a preview card (and for which platform), or a person.
import { isbot } from "isbot";
import { variantForPlatform, type CardVariant } from "../previews/variants.ts";
import { boundedMemo } from "../bounded-memo.ts";

export type Visitor = { isBot: boolean; platform: string | null };
/**
 * A visitor with the card variant its platform gets (people: the default, never used) and its crawler platform's
 * place in PREVIEW_PLATFORMS for the /go counters (-1 for a person).
 */
export type ClassifiedVisitor = Visitor & { variant: CardVariant; platformIndex: number };

// Order matters: iMessage's previewer names Facebook and Twitter, Telegram's names TwitterBot.
const PLATFORMS: ReadonlyArray<readonly [string, RegExp]> = [
  ["imessage", /facebookexternalhit\/[\d.]+ Facebot Twitterbot/i],
  ["telegram", /TelegramBot/i],
  ["facebook", /facebookexternalhit|meta-externalagent|Facebot|facebookcatalog/i],
  ["x", /Twitterbot/i],
  ["linkedin", /LinkedInBot/i],
  ["slack", /Slackbot|Slack-ImgProxy/i],
  ["discord", /Discordbot/i],
  ["whatsapp", /WhatsApp/i],
  ["mastodon", /Mastodon/i],
  ["bluesky", /Bluesky|Cardyb/i],
  ["pinterest", /Pinterest/i],
  ["reddit", /redditbot/i],
  ["skype", /SkypeUriPreview/i],
  ["teams", /MicrosoftPreview|Teams/i],
  ["apple", /Applebot/i],
  ["google", /Googlebot|Google-InspectionTool|GoogleOther|APIs-Google|AdsBot-Google/i],
  ["bing", /bingbot|BingPreview/i],
];

// Page-speed and monitoring tools drive a real browser and add their own token, so some pass isbot as people.
// They draw no card for anyone: crawlers of platform "other". In-app browsers (Instagram, MetaIAB, LinkedIn,
// X) carry their app's name too but are people clicking, so the tokens here are the tools' own.
const AUDITING_TOOLS =
  /\b(?:GTmetrix|YLT|YellowLabTools|Miniature\.io|Pingdom|pingbot|UptimeRobot|Chrome-Lighthouse|Lighthouse|PageSpeed|Page Speed Insights|PTST|HeadlessChrome)\b/i;

export function classifyUserAgent(userAgent: string): Visitor {
  // A missing User-Agent is a script or a crawler, never a person's browser.
  if (userAgent.trim() === "") return { isBot: true, platform: "other" };
  if (AUDITING_TOOLS.test(userAgent)) return { isBot: true, platform: "other" };
  if (!isbot(userAgent)) return { isBot: false, platform: null };
  for (const [platform, pattern] of PLATFORMS) if (pattern.test(userAgent)) return { isBot: true, platform };
  return { isBot: true, platform: "other" };
}

const MEMO_LIMIT = 5000;

/** Every platform a crawler can be classified as, in a fixed order: /go counts previews in an array by it. */
export const PREVIEW_PLATFORMS: readonly string[] = [...PLATFORMS.map(([platform]) => platform), "other"];

/**
 * classifyUserAgent, the platform's card variant and its place in PREVIEW_PLATFORMS (-1 for a person), memoised
 * per User-Agent string: the same few agents make most requests.
 */
export function createVisitorClassifier(): (userAgent: string) => ClassifiedVisitor {
  return boundedMemo(MEMO_LIMIT, (userAgent) => {
    const classified = classifyUserAgent(userAgent);
    return {
      ...classified,
      variant: variantForPlatform(classified.platform),
      platformIndex: classified.platform === null ? -1 : PREVIEW_PLATFORMS.indexOf(classified.platform),
    };
  });
}
