// How targets are compared with threat entries. tldts keeps public suffixes apart (ICANN's and private ones such
// as github.io): an entry is looked up by the registrable domain, a host entry covers that host and its
// subdomains only, and nothing ever covers a whole suffix (co.uk, github.io).
import { parse } from "tldts";
import { canonicalHttpUrl } from "../links/url.ts";

export type ThreatKind = "url" | "host";
export type ThreatEntry = { kind: ThreatKind; value: string; domain: string };

const HOST_LIKE = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;

/** A URL as entries and targets are compared: canonicalHttpUrl's form (docs/decisions/0042), no fragment; null if not http(s). */
export function normaliseUrl(value: string): string | null {
  const canonical = canonicalHttpUrl(value);
  if (!canonical) return null;
  const url = new URL(canonical);
  url.hash = "";
  return url.href;
}

/** A host name as entries are kept: lower case, punycode (IDN), no trailing dot; null if it is none. */
export function normaliseHost(value: string): string | null {
  const text = value.trim();
  if (!text || /[\s/@?#]/.test(text) || !URL.canParse(`http://${text}`)) return null;
  const host = new URL(`http://${text}`).hostname.replace(/\.+$/, "");
  return HOST_LIKE.test(host) ? host : null;
}

/** The registrable domain (eTLD+1) of a host, or the host itself for an IP address or a bare suffix. */
export function domainOf(host: string): string {
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.isIp ? host : (parsed.domain ?? host);
}

/** Whether a host is a public suffix by itself (co.uk, github.io): never blocked whole. */
export function isPublicSuffix(host: string): boolean {
  const parsed = parse(host, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain === null;
}

export function urlEntry(value: string): ThreatEntry | null {
  const url = normaliseUrl(value);
  return url ? { kind: "url", value: url, domain: domainOf(new URL(url).hostname) } : null;
}

/** A host entry; null for something that is not a host name, or a whole public suffix. */
export function hostEntry(value: string): ThreatEntry | null {
  const host = normaliseHost(value);
  return host && !isPublicSuffix(host) ? { kind: "host", value: host, domain: domainOf(host) } : null;
}

/** Whether `entry` covers the target (`url` normalised, `host` its host): the same URL, or the host or one of its subdomains. */
export function covers(entry: { kind: string; value: string }, url: string, host: string): boolean {
  if (entry.kind === "url") return entry.value === url;
  return host === entry.value || host.endsWith(`.${entry.value}`);
}

/** What links.target_domain holds for a target URL (null: not an http(s) URL). */
export function targetDomainOf(targetUrl: string): string | null {
  const url = normaliseUrl(targetUrl);
  return url ? domainOf(new URL(url).hostname) : null;
}
