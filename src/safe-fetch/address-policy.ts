// Which addresses the server may fetch from: public unicast only, judged after resolution on every address a name
// has. ipaddr.js names each special range; anything it does not call "unicast" is refused (loopback, private,
// link-local with the cloud metadata address, CGNAT, unique-local, NAT64, 6to4, Teredo, multicast, reserved, …).
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [IpAddress, number];

/** Ranges ipaddr.js calls unicast that still reach inside: IPv4-compatible IPv6 (::a.b.c.d, deprecated). */
const ALSO_BLOCKED: Cidr[] = [ipaddr.parseCIDR("::/96")];

/** Parses FETCH_ALLOW_PRIVATE's comma-separated CIDRs; throws an Error naming the first bad entry. */
export function parseCidrList(text: string): Cidr[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map((entry) => {
      try {
        return ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`"${entry}" is not a CIDR such as 10.0.0.0/8 or fd00::/8`);
      }
    });
}

const inside = (address: IpAddress, cidrs: readonly Cidr[]) =>
  cidrs.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));

/**
 * The verdict on one resolved (or literal) address. An IPv4-mapped IPv6 address is judged, and connected to, as
 * the IPv4 address it carries. `allowed`: inside FETCH_ALLOW_PRIVATE (any port may then be used).
 */
export type AddressVerdict =
  | { ok: true; address: string; family: 4 | 6; allowed: boolean }
  | { ok: false; address: string; range: string };

export function judgeAddress(text: string, allowPrivate: readonly Cidr[]): AddressVerdict {
  const raw = text.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(raw)) return { ok: false, address: raw, range: "invalid" };
  let address: IpAddress = ipaddr.parse(raw);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const shown = address.toString();
  const family = address.kind() === "ipv4" ? 4 : 6;
  if (inside(address, allowPrivate)) return { ok: true, address: shown, family, allowed: true };
  const named = address.range();
  const range = named === "unicast" && inside(address, ALSO_BLOCKED) ? "ipv4Compatible" : named;
  return range === "unicast"
    ? { ok: true, address: shown, family, allowed: false }
    : { ok: false, address: shown, range };
}

/** Each range a refusal names, in words. */
export const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address (such as a cloud metadata service)",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a unique-local address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  ipv4Compatible: "an IPv4-compatible IPv6 address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  reserved: "a reserved address",
};
