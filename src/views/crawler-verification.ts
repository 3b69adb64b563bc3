// Whether a card fetcher is who its User-Agent says (docs/decisions/0066): checked in the view writer, on each
// batch before anything else, while the full client address is still at hand (it is then hashed, truncated and
// forgotten as before). Serving never waits on this: /go answered long before, by the User-Agent alone.
// - A platform with a published crawler list (Google, Bing, Apple, Telegram) or a known autonomous system (Meta for
//   Facebook, WhatsApp, Instagram and meta-externalagent; X; LinkedIn) is `verified` from its network, `unverified`
//   from anywhere else (a forged User-Agent).
// - Every other platform is `unverifiable`: iMessage fetches from the sender's phone, Slack from a cloud provider,
//   and the rest publish no addresses.
// - A Google, Bing or Apple claim from outside its list is `verified` still when forward-confirmed reverse DNS says
//   so (./reverse-dns.ts, decision 0072): its lookup never holds the batch, and an address not looked up yet is
//   recorded as its list says while the answer is sought for its later views.
// - A person's view from one of these networks is the platform checking the link with a browser's User-Agent (X's
//   HEAD bursts, Meta's link checks): counted as that platform's fetch, verified, never as a person.
import { networkOf, type CrawlerNetwork } from "./crawler-networks.ts";
import type { ReverseDnsCheck } from "./reverse-dns.ts";
import type { ViewBatch } from "./view-batch.ts";

export type Verification = "verified" | "unverified" | "unverifiable";
/** The batch's codes (ViewBatch.verification): 0 is not a card fetcher's view. */
export const VERIFICATION: readonly (Verification | null)[] = [null, "verified", "unverified", "unverifiable"];
const CODE: Readonly<Record<Verification, number>> = { verified: 1, unverified: 2, unverifiable: 3 };

/** The network each verifiable platform (src/go/visitor-kinds.ts's names) fetches from. */
const PLATFORM_NETWORK: Readonly<Record<string, CrawlerNetwork>> = {
  google: "google",
  bing: "bing",
  apple: "apple",
  telegram: "telegram",
  facebook: "meta",
  whatsapp: "meta",
  instagram: "meta",
  x: "x",
  linkedin: "linkedin",
};

/** Whose fetch a browser-looking request from a network is. */
const NETWORK_PLATFORM: Readonly<Record<CrawlerNetwork, string>> = {
  google: "google",
  bing: "bing",
  apple: "apple",
  telegram: "telegram",
  meta: "facebook",
  x: "x",
  linkedin: "linkedin",
};

/** How a claim to be `platform` from `address` checks out; `reverseDns`: null when it is off (CRAWLER_RDNS). */
export function verificationOf(
  platform: string,
  address: string,
  reverseDns: ReverseDnsCheck | null = null,
): Verification {
  const network = PLATFORM_NETWORK[platform];
  if (network === undefined) return "unverifiable";
  if (networkOf(address) === network) return "verified";
  return reverseDns?.confirmed(platform, address) === true ? "verified" : "unverified";
}

/**
 * Sets each card fetcher's verification in `b.verification` (a card fetcher's view carries the rendition it was
 * served), and turns a person's view from a platform's network into that platform's verified fetch. Runs once per
 * batch, before it is stored or sealed for the spool.
 */
export function verifyBatch(b: ViewBatch, reverseDns: ReverseDnsCheck | null = null): void {
  const platformIndex = new Map<string, number>();
  const indexOf = (platform: string) => {
    let index = platformIndex.get(platform) ?? b.strings.indexOf(platform);
    if (index === -1) index = b.strings.push(platform) - 1;
    platformIndex.set(platform, index);
    return index;
  };
  for (let i = 0; i < b.size; i++) {
    const address = b.address[i]! < 0 ? "" : b.strings[b.address[i]!]!;
    if (b.rendition[i]! >= 0) b.verification[i] = CODE[verificationOf(b.strings[b.platform[i]!]!, address, reverseDns)];
    else if (b.isBot[i] === 0) {
      const network = networkOf(address);
      if (network === null) continue;
      b.isBot[i] = 1;
      b.scan[i] = 0;
      b.platform[i] = indexOf(NETWORK_PLATFORM[network]);
      b.verification[i] = CODE.verified;
    }
  }
}
