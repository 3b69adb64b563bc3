// A hostname as the owner typed it, made into the one form it is stored, looked up and asked about under:
// lower-case ASCII (IDN as punycode), without a trailing dot, port or scheme. Refuses what may never be a
// custom domain: IP literals, the instance's own names (PUBLIC_URL's host, ALIAS_HOSTS, the CNAME target) and names
// under them.
import { isIP } from "node:net";
import { domainToASCII } from "node:url";

/** The normalised hostname, or null when `input` is not a hostname at all (lookups answer "unknown"). */
export function normaliseHost(input: string): string | null {
  let host = input.trim();
  if (host === "" || host.length > 300) return null;
  if (host.startsWith("[")) return null; // An IPv6 literal, with or without a port.
  const colon = host.lastIndexOf(":");
  if (colon !== -1) {
    if (!/^\d{1,5}$/.test(host.slice(colon + 1))) return null;
    host = host.slice(0, colon);
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  const ascii = domainToASCII(host);
  if (ascii === "" || ascii.length > 253) return null;
  const labels = ascii.split(".");
  if (labels.length < 2 || labels.some((label) => !/^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))) {
    return isIP(ascii) ? ascii : null;
  }
  return ascii;
}

export type HostnameCheck = { ok: true; hostname: string } | { ok: false; message: string };

/** What POST /api/domains accepts: a hostname that is neither an address nor one of `ownHosts` (normalised). */
export function checkNewHostname(input: string, ownHosts: readonly string[]): HostnameCheck {
  const trimmed = input
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "");
  if (isIP(trimmed.replace(/^\[|\](:\d+)?$/g, "")) !== 0 || trimmed.startsWith("["))
    return { ok: false, message: "hostname: An IP address cannot be a custom domain; use a hostname" };
  const hostname = normaliseHost(trimmed);
  if (hostname === null) return { ok: false, message: "hostname: Not a valid hostname (such as links.example.com)" };
  if (isIP(hostname) !== 0 || /^\d+$/.test(hostname.split(".").at(-1)!))
    return { ok: false, message: "hostname: An IP address cannot be a custom domain; use a hostname" };
  if (ownHosts.some((own) => hostname === own || hostname.endsWith(`.${own}`)))
    return { ok: false, message: "hostname: This instance's own host (and names under it) cannot be a custom domain" };
  return { ok: true, hostname };
}
