// Who is fetching a short URL: a crawler drawing a preview card (and for which platform), a search engine, another
// bot of its kind, or a person (docs/decisions/0059). The lists are in ./visitor-kinds.ts.
import { isbot } from "isbot";
import { variantForPlatform, type CardVariant } from "../previews/variants.ts";
import { boundedMemo } from "../bounded-memo.ts";
import { OTHER_BOTS, PREVIEW_CRAWLERS, SEARCH_ENGINES, type VisitorKind } from "./visitor-kinds.ts";

export type { VisitorKind } from "./visitor-kinds.ts";

/**
 * `platform`: a card fetcher's platform (preview, search), another bot's kind (`tool`, `monitor`, …: what its views
 * are counted under), null for a person.
 */
export type Visitor = { isBot: boolean; kind: VisitorKind; platform: string | null };
/**
 * A visitor with whether it gets the card (preview crawlers and search engines; people and every other bot get the
 * 302), the card variant its platform gets (the default for the others, never used) and its platform's place in
 * PREVIEW_PLATFORMS for the /go counters (-1 for those that get no card).
 */
export type ClassifiedVisitor = Visitor & { card: boolean; variant: CardVariant; platformIndex: number };

const PERSON: Visitor = { isBot: false, kind: "person", platform: null };

export function classifyUserAgent(userAgent: string): Visitor {
  // A missing User-Agent is a script, never a person's browser.
  if (userAgent.trim() === "") return { isBot: true, kind: "other", platform: "other" };
  const bot = isbot(userAgent);
  if (bot) {
    for (const [platform, pattern] of PREVIEW_CRAWLERS)
      if (pattern.test(userAgent)) return { isBot: true, kind: "preview", platform };
    for (const [platform, pattern] of SEARCH_ENGINES)
      if (pattern.test(userAgent)) return { isBot: true, kind: "search", platform };
  }
  for (const [kind, pattern] of OTHER_BOTS) if (pattern.test(userAgent)) return { isBot: true, kind, platform: kind };
  return bot ? { isBot: true, kind: "other", platform: "other" } : PERSON;
}

/** Whether a visitor of this kind gets the card page rather than the 302. */
export const getsCard = (kind: VisitorKind): boolean => kind === "preview" || kind === "search";

const MEMO_LIMIT = 5000;

/** Every platform that gets the card, in a fixed order: /go counts previews in an array by it. */
export const PREVIEW_PLATFORMS: readonly string[] = [...PREVIEW_CRAWLERS, ...SEARCH_ENGINES].map(
  ([platform]) => platform,
);

/**
 * classifyUserAgent, whether the visitor gets the card, the platform's card variant and its place in
 * PREVIEW_PLATFORMS (-1 without a card), memoised per User-Agent string: the same few agents make most requests.
 */
export function createVisitorClassifier(): (userAgent: string) => ClassifiedVisitor {
  return boundedMemo(MEMO_LIMIT, (userAgent) => {
    const classified = classifyUserAgent(userAgent);
    const card = getsCard(classified.kind);
    return {
      ...classified,
      card,
      variant: variantForPlatform(card ? classified.platform : null),
      platformIndex: card ? PREVIEW_PLATFORMS.indexOf(classified.platform!) : -1,
    };
  });
}
