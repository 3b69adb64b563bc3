// Forward-confirmed reverse DNS for the crawlers whose platforms document it (docs/decisions/0072): the address's
// PTR name must end in one of the platform's domains, and that name's A/AAAA records must contain the address.
// Lives in the view writer Worker only. verifyBatch asks `confirmed` synchronously: an address not looked up yet
// answers null and its lookup starts in the background, so a batch never waits on DNS; the answer serves the
// address's later views. Kept in memory only (bounded, a day at most), never stored.
import { isIPv6 } from "node:net";
import type { DnsResolver } from "../safe-fetch/dns-resolver.ts";

/** The platforms that document the check, and the domains their crawlers' names end in. */
const REVERSE_DNS_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  // developers.google.com/search/docs/crawling-indexing/verifying-googlebot
  google: ["googlebot.com", "google.com", "googleusercontent.com"],
  // bing.com/webmasters/help/how-to-verify-bingbot
  bing: ["search.msn.com"],
  // support.apple.com/en-us/119829 (About Applebot)
  apple: ["applebot.apple.com"],
};

export type ReverseDnsSettings = { maxEntries: number; ttlMs: number; failedTtlMs: number; maxInFlight: number };
const REVERSE_DNS_DEFAULTS: ReverseDnsSettings = {
  maxEntries: 10_000,
  ttlMs: 86_400_000,
  // A resolver that failed is asked again after a while, not at every view.
  failedTtlMs: 300_000,
  // Lookups under way at once; past it an address waits for a later view.
  maxInFlight: 32,
};

/** An IPv6 address as its 32 hex digits (no IPv4 tail: verifyBatch's addresses are what the socket reported). */
function nibblesOf(address: string): string {
  const [head, tail] = address.toLowerCase().split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.map((group) => group.padStart(4, "0")).join("");
}

/** The in-addr.arpa / ip6.arpa name of an address. */
export function reverseNameOf(address: string): string {
  if (isIPv6(address)) return `${[...nibblesOf(address)].reverse().join(".")}.ip6.arpa`;
  return `${address.split(".").reverse().join(".")}.in-addr.arpa`;
}

const sameAddress = (a: string, b: string) => (isIPv6(a) ? isIPv6(b) && nibblesOf(a) === nibblesOf(b) : a === b);

export class ReverseDnsCheck {
  /** address → the platforms it was confirmed for (empty: none), and until when that holds. Oldest first. */
  private readonly known = new Map<string, { platforms: Set<string>; until: number }>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly resolver: DnsResolver,
    private readonly now: () => number,
    private readonly settings: ReverseDnsSettings = REVERSE_DNS_DEFAULTS,
  ) {}

  /** Whether `address` is confirmed as `platform`'s crawler; null while unknown (a lookup starts, unless one is under way). */
  confirmed(platform: string, address: string): boolean | null {
    if (REVERSE_DNS_DOMAINS[platform] === undefined || address === "") return false;
    const entry = this.known.get(address);
    if (entry && entry.until > this.now()) return entry.platforms.has(platform);
    if (!this.pending.has(address) && this.pending.size < this.settings.maxInFlight)
      this.pending.set(address, this.lookUp(address));
    return null;
  }

  /** Settles when the lookups under way have (the unit tests wait on it). */
  async settled(): Promise<void> {
    await Promise.all(this.pending.values());
  }

  private async lookUp(address: string): Promise<void> {
    try {
      const found = await this.platformsOf(address).catch(() => null);
      this.remember(address, found ?? new Set(), found ? this.settings.ttlMs : this.settings.failedTtlMs);
    } finally {
      this.pending.delete(address);
    }
  }

  /** The platforms whose domain the address's name ends in and whose name leads back to it; null: DNS failed. */
  private async platformsOf(address: string): Promise<Set<string> | null> {
    const platforms = new Set<string>();
    const ptr = await this.resolver.query(reverseNameOf(address), "PTR");
    if (ptr.kind === "failed") return null;
    if (ptr.kind === "missing") return platforms;
    for (const { data: host } of ptr.records) {
      const claims = Object.entries(REVERSE_DNS_DOMAINS)
        .filter(([, domains]) => domains.some((domain) => host.endsWith(`.${domain}`)))
        .map(([platform]) => platform);
      if (claims.length === 0) continue;
      const forward = await this.resolver.query(host, isIPv6(address) ? "AAAA" : "A");
      if (forward.kind === "failed") return null;
      if (forward.kind === "records" && forward.records.some((record) => sameAddress(record.data, address)))
        for (const platform of claims) platforms.add(platform);
    }
    return platforms;
  }

  private remember(address: string, platforms: Set<string>, ttlMs: number) {
    this.known.delete(address);
    if (this.known.size >= this.settings.maxEntries) this.known.delete(this.known.keys().next().value!);
    this.known.set(address, { platforms, until: this.now() + ttlMs });
  }
}
