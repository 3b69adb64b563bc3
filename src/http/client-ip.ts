// The client's address: who sent the request (behind proxies too), the key limits count it by, and the address
// as we store it: truncated (IPv4 /24, IPv6 /48), because our users are in the EU and a full address is personal
// data we do not need.
import type { Server } from "bun";
import ipaddr from "ipaddr.js";
import { boundedMemo } from "../bounded-memo.ts";

export function truncateIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ip.replace(/\.\d+$/, ".0");
  if (ip.includes(":")) {
    const [head = "", tail = ""] = ip.split("::");
    const headGroups = head ? head.split(":") : [];
    const tailGroups = tail ? tail.split(":") : [];
    const groups = ip.includes("::")
      ? [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0"), ...tailGroups]
      : headGroups;
    return `${groups
      .slice(0, 3)
      .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
      .join(":")}::`;
  }
  return "";
}

/** truncateIp, remembered per address (10,000): the same visitors come back, and this runs on every click. */
export const truncateIpMemo = boundedMemo(10_000, truncateIp);

/**
 * Who may speak for the client in X-Forwarded-For: null when TRUST_PROXY is off (the socket's address is the
 * client's); else the proxies in front of ours (TRUSTED_PROXIES), whose hops are skipped.
 */
export type ProxyTrust = { readonly proxies: readonly ProxyRange[] } | null;
type ProxyRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** TRUSTED_PROXIES' checked CIDR texts (config/config.ts) as ranges. */
export const proxyTrust = (trustProxy: boolean, cidrs: readonly string[]): ProxyTrust =>
  trustProxy ? { proxies: cidrs.map((cidr) => ipaddr.parseCIDR(cidr)) } : null;

function isTrustedProxy(hop: string, proxies: readonly ProxyRange[]): boolean {
  if (!ipaddr.isValid(hop)) return false;
  const address = ipaddr.process(hop);
  return proxies.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/**
 * The client's address. Behind our proxy (TRUST_PROXY), the X-Forwarded-For hop nearest to it that is not one of
 * TRUSTED_PROXIES: each proxy appends the address it was reached from, so only the right end is written by
 * proxies; the left is whatever the client sent. Without it the socket's (asked for only then: a system call).
 * No TRUSTED_PROXIES (the common case, and /go's hot path): the last hop, one string search.
 */
export function clientIp(
  request: Request,
  server: Pick<Server<unknown>, "requestIP"> | null | undefined,
  trust: ProxyTrust,
): string {
  const forwarded = trust === null ? null : request.headers.get("x-forwarded-for");
  if (forwarded) {
    const proxies = trust!.proxies;
    for (let end = forwarded.length; end > 0; ) {
      const comma = forwarded.lastIndexOf(",", end - 1);
      const hop = forwarded.slice(comma + 1, end).trim();
      if (hop !== "" && (comma === -1 || proxies.length === 0 || !isTrustedProxy(hop, proxies))) return hop;
      end = comma;
    }
  }
  return server?.requestIP(request)?.address ?? "";
}

/**
 * The key a limit counts a client by: an IPv4 address, or an IPv6 address's /64 (one subscriber's network: each
 * gets at least that many addresses to rotate through).
 */
export function rateKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}
