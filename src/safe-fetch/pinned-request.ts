// One request of a safe fetch (src/safe-fetch/fetcher.ts): the URL's name resolved to all its addresses, each
// judged by the address policy, and the connection made to the judged address itself (IP literal + Host header +
// TLS server name), so that a second DNS answer cannot swap it (rebinding). See decision 0008.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "../http/errors.ts";
import { judgeAddress, RANGE_WORDS, type Cidr } from "./address-policy.ts";
import { raceAbort } from "./body.ts";

/** All the addresses a name has (A and AAAA). Injectable: tests answer with their own resolver. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A refusal: 422 with the reason. */
export const refused = (message: string) => new AppError(422, message);

/** What every request of a fetcher is judged and sent with. */
export type HopPolicy = {
  resolve: Resolver;
  /** FETCH_ALLOW_PRIVATE's CIDRs: addresses inside may be fetched, on any port. */
  allowPrivate: Cidr[];
  userAgent: string;
  /** Certificate authorities to trust besides the system's. */
  ca?: string;
};

const STANDARD_PORTS = new Set([80, 443]);

/** Where a URL leads, each address judged by the policy: a refusal (422) says why. */
export async function judged(policy: HopPolicy, url: string, signal: AbortSignal) {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw refused("Only http and https addresses can be fetched");
  if (target.username || target.password) throw refused("Addresses with a user name or password are not fetched");
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(hostname) !== 0;
  let addresses: string[];
  try {
    addresses = literal ? [hostname] : await raceAbort(policy.resolve(hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw refused(`Could not find the address of ${hostname}`);
  }
  if (addresses.length === 0) throw refused(`Could not find the address of ${hostname}`);
  const verdicts = addresses.map((address) => judgeAddress(address, policy.allowPrivate));
  const ok: Array<Extract<(typeof verdicts)[number], { ok: true }>> = [];
  for (const verdict of verdicts) {
    if (!verdict.ok) {
      const words = RANGE_WORDS[verdict.range] ?? `a special-purpose address (${verdict.range})`; // a name's address is not told: it maps an intranet
      throw refused(
        `Refused: ${literal ? `${verdict.address}, ${words}` : `${hostname} resolves to ${words}`}; only public addresses are fetched`,
      );
    }
    ok.push(verdict);
  }
  return { target, hostname, literal, verdicts: ok, allowed: ok.every((verdict) => verdict.allowed) };
}

/** One request, to an address the policy accepted, for this URL's name. */
export async function pinnedRequest(
  policy: HopPolicy,
  url: string,
  accept: string,
  signal: AbortSignal,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  const { target, hostname, literal, verdicts, allowed } = await judged(policy, url, signal);
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  if (!STANDARD_PORTS.has(port) && !allowed)
    throw refused(`Port ${port} is not allowed: only ports 80 and 443 are fetched`);
  // Pinned: the request goes to the address just judged; the name travels in Host and in the TLS handshake.
  const chosen = verdicts[0]!;
  const pinned = new URL(target);
  pinned.hostname = chosen.family === 6 ? `[${chosen.address}]` : chosen.address;
  try {
    return await fetch(pinned, {
      method: init.method,
      body: init.body,
      redirect: "manual",
      signal,
      headers: { ...init.headers, Host: target.host, "User-Agent": policy.userAgent, Accept: accept },
      tls: { ...(literal ? {} : { serverName: hostname }), ...(policy.ca ? { ca: policy.ca } : {}) },
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw refused(`Could not connect to ${hostname}`);
  }
}
