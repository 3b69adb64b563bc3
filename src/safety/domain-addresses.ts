// A custom domain's root and not-found addresses send people somewhere too: the domain add and update operations
// (src/domains/) pass them through the check every destination passes, in their canonical spelling, and write
// them to the per-host index with the domain (destinations.ts), so that a later feed refresh finds them.
import { badRequest } from "../http/errors.ts";
import { CANONICAL_URL_MAX, canonicalHttpUrl, ENCODED_URL_TOO_LONG } from "../links/url.ts";
import { checkTargetSafety } from "./check-target.ts";
import type { SafetyDeps } from "./deps.ts";
import type { DomainUrls } from "./destinations.ts";

/** The addresses `input` sets, canonical and checked (a 422 naming the field and the list); absent stays absent. */
export async function checkedDomainUrls(safety: SafetyDeps, input: DomainUrls): Promise<DomainUrls> {
  const checked: DomainUrls = {};
  for (const field of ["rootUrl", "notFoundUrl"] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const url = value === null ? null : canonicalHttpUrl(value);
    if (value !== null && url === null) throw badRequest(`${field}: must be an http(s) URL`, field);
    if (url !== null && url.length > CANONICAL_URL_MAX) throw badRequest(`${field}: ${ENCODED_URL_TOO_LONG}`, field);
    if (url !== null) await checkTargetSafety(safety, url, field);
    checked[field] = url;
  }
  return checked;
}
