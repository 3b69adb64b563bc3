// The version in a /go address (docs/decisions/0007): the same link under a new address, for platforms that cache
// cards by URL.

/** The plain address is version 1; its crawler page names the plain address. */
export const PLAIN = "1";
/** A version as written in an address: a positive whole number without leading zeros, below 10⁹. */
export const VERSION_PATTERN = /^[1-9][0-9]{0,8}$/;
