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
