// What a custom domain is, shared by the operations, the API's wire types and the host routing.
export const DOMAIN_STATUSES = ["pending", "verified", "failing", "invalid"] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** A failing domain (its records gone) is still served, and its certificate still allowed, until it is invalid. */
export const SERVED_STATUSES: DomainStatus[] = ["verified", "failing"];
export const isServed = (status: string) => (SERVED_STATUSES as string[]).includes(status);

/** An unverified claim (pending) is let go this long after it was made, so that no one holds a name they cannot prove. */
export const PENDING_CLAIM_MS = 7 * 86_400_000;

/** How long a domain may fail before it is invalid (no longer served). */
export const FAILING_GRACE_MS = 7 * 86_400_000;

/** The TXT record that proves ownership lives at this name. */
export const txtNameOf = (hostname: string) => `_linkprev.${hostname}`;

export const DOMAIN_NOT_FOUND = "Domain not found";
export const DOMAIN_SERVED_ELSEWHERE = "This domain is verified for another account";

// App links (docs/decisions/0060): a domain's Apple app-site-association and Android asset-links documents, served
// byte-exact at these paths on its host (src/go/custom-host.ts); their shapes are checked in wire.ts.
/** Where each is served, on the custom host only, as application/json with no redirect. */
export const AASA_PATH = "/.well-known/apple-app-site-association";
export const ASSET_LINKS_PATH = "/.well-known/assetlinks.json";

/** At most this many bytes (UTF-8) each: Apple's own limit for the association file, uncompressed. */
export const APP_LINK_DOCUMENT_MAX_BYTES = 128 * 1024;
