// The earlier addresses (a renamed slug, a domain a link was moved off: docs/decisions/0047) the link cache holds,
// by the key of the link's own address: each holds a copy of the link, so a change announced for the link must
// drop them too. Read on a change only, never on /go.

export class EarlierAddresses {
  private readonly byLink = new Map<string, string[]>();

  /** `key`, an earlier address, holds the link at `linkKey`. */
  add(linkKey: string, key: string): void {
    const keys = this.byLink.get(linkKey);
    if (keys === undefined) this.byLink.set(linkKey, [key]);
    else if (!keys.includes(key)) keys.push(key);
  }

  /** The earlier addresses held for the link at `linkKey`, forgotten. */
  take(linkKey: string): string[] {
    const keys = this.byLink.get(linkKey);
    if (keys === undefined) return [];
    this.byLink.delete(linkKey);
    return keys;
  }

  /** Forgets those of the links under a user slug ("userSlug/"). */
  forgetUnder(prefix: string): void {
    for (const linkKey of this.byLink.keys()) if (linkKey.startsWith(prefix)) this.byLink.delete(linkKey);
  }

  clear(): void {
    this.byLink.clear();
  }
}
