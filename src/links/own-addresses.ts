// "Does this URL lead back to this instance?" A link whose target is this server loops (or points at itself), so
// src/links/checks.ts refuses such targets (custom domains served here are asked of the database: services.ts).
// Pure: hosts are compared as the WHATWG URL parser normalised them (lower case, IPv4 in dotted form whatever way
// it was written: 2130706433, 0x7f.1, 127.1), without a trailing dot.
import ipaddr from "ipaddr.js";

export type OwnAddresses = {
  /** PUBLIC_URL. */
  publicUrl: string;
  /** ALIAS_HOSTS: other names of this instance, "name" (any port) or "name:port". */
  aliasHosts: readonly string[];
  /** The port this instance listens on (PORT): loopback names reach it there, and only there. */
  port: number;
  /** HOST, the address it listens on: a specific one reaches it on `port` (wildcards add nothing). */
  listenHost?: string;
};

type HostPort = { hostname: string; port: number | null };

/** A host as the URL parser writes it, without the trailing dot that names the same host. */
const canonicalHost = (hostname: string) => hostname.toLowerCase().replace(/\.$/, "");

/** The port a request to `url` goes to. */
const portOf = (url: URL) => (url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** "name" or "name:port" (IPv6 in brackets), read by the URL parser so it normalises like a target would. */
function parseAlias(entry: string): HostPort {
  const url = new URL(`http://${entry}`);
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash || !url.hostname) {
    throw new Error(`"${entry}" is not a host name, with or without :port`);
  }
  // new URL drops the default port 80 even when written: an explicit ":80" still means port 80.
  const port = url.port !== "" ? Number(url.port) : /:80$/.test(entry) ? 80 : null;
  return { hostname: canonicalHost(url.hostname), port };
}

/** Parses ALIAS_HOSTS's comma-separated list; throws an Error naming the first bad entry. */
export function parseAliasHosts(text: string): string[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    if (!URL.canParse(`http://${entry}`)) throw new Error(`"${entry}" is not a host name, with or without :port`);
    parseAlias(entry);
  }
  return entries;
}

/** Loopback (127.0.0.0/8, ::1, and IPv4-mapped forms), the unspecified address (0.0.0.0 and :: reach this machine), localhost and *.localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = canonicalHost(hostname);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const raw = host.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(raw)) return false;
  let address = ipaddr.parse(raw);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  const range = address.range();
  return range === "loopback" || range === "unspecified";
}

/** Builds the check once per configuration; the answer for a URL is then a few comparisons. */
export function ownAddresses(own: OwnAddresses): (url: URL) => boolean {
  const publicUrl = new URL(own.publicUrl);
  const publicPort = portOf(publicUrl);
  // Behind a proxy the public name usually answers on both web ports (http redirecting to https).
  const publicPorts = new Set([publicPort, own.port, ...(publicPort === 80 || publicPort === 443 ? [80, 443] : [])]);
  const names: Array<{ hostname: string; ports: Set<number> | null }> = [
    { hostname: canonicalHost(publicUrl.hostname), ports: publicPorts },
    ...own.aliasHosts
      .map(parseAlias)
      .map(({ hostname, port }) => ({ hostname, ports: port === null ? null : new Set([port]) })),
  ];
  const listen = own.listenHost
    ? canonicalHost(own.listenHost.includes(":") ? `[${own.listenHost}]` : own.listenHost)
    : null;
  if (listen && !isLoopbackHost(listen)) names.push({ hostname: listen, ports: new Set([own.port]) });
  return (url) => {
    const hostname = canonicalHost(url.hostname);
    const port = portOf(url);
    if (isLoopbackHost(hostname) && port === own.port) return true;
    return names.some((name) => name.hostname === hostname && (name.ports === null || name.ports.has(port)));
  };
}
