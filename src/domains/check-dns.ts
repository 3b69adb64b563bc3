// What DNS says of a domain now: proven (the TXT token is there and the host leads here), gone (a definite
// answer without them), or unknown (a transient failure: SERVFAIL, a timeout), which never changes a status.
import type { DnsAnswer, DnsResolver } from "../safe-fetch/dns-resolver.ts";
import { txtNameOf } from "./model.ts";

export type DnsCheck = { kind: "proven" } | { kind: "gone"; reason: string } | { kind: "unknown"; reason: string };
/** Where owners point their hosts (config.domains). */
export type Routing = { cnameTarget: string | null; addresses: string[] };

/** CNAMEs followed at most this deep (a loop ends here too). */
const MAX_CHAIN = 8;

const unknown = (answer: Extract<DnsAnswer, { kind: "failed" }>): DnsCheck => ({
  kind: "unknown",
  reason: `DNS lookup failed: ${answer.reason}`,
});

async function checkTxt(resolver: DnsResolver, hostname: string, token: string): Promise<DnsCheck> {
  const name = txtNameOf(hostname);
  const answer = await resolver.query(name, "TXT");
  if (answer.kind === "failed") return unknown(answer);
  const values =
    answer.kind === "records"
      ? answer.records.filter((record) => record.type === "TXT").map((record) => record.data)
      : [];
  if (values.includes(token)) return { kind: "proven" };
  return {
    kind: "gone",
    reason:
      values.length === 0
        ? `No TXT record at ${name}`
        : `The TXT record at ${name} does not hold the verification token`,
  };
}

/** The CNAME target's own addresses: what an apex flattened to it (ALIAS/ANAME) answers. */
async function targetAddresses(resolver: DnsResolver, target: string): Promise<string[]> {
  const answers = await Promise.all((["A", "AAAA"] as const).map((type) => resolver.query(target, type)));
  return answers.flatMap((answer) =>
    answer.kind === "records"
      ? answer.records.filter((record) => record.type === "A" || record.type === "AAAA").map((record) => record.data)
      : [],
  );
}

/**
 * Whether the host's A/AAAA answers (following CNAMEs) reach the configured target or addresses; without
 * addresses configured, the target's own addresses count too (an apex cannot have a CNAME, only a flattened one).
 */
async function checkRouting(resolver: DnsResolver, hostname: string, routing: Routing): Promise<DnsCheck> {
  const configured =
    routing.addresses.length === 0 && routing.cnameTarget
      ? await targetAddresses(resolver, routing.cnameTarget)
      : routing.addresses;
  const addresses = new Set(configured.map((address) => address.toLowerCase()));
  for (const type of ["A", "AAAA"] as const) {
    let name = hostname;
    for (let hop = 0; hop < MAX_CHAIN; hop++) {
      const answer = await resolver.query(name, type);
      if (answer.kind === "failed") return unknown(answer);
      if (answer.kind === "missing") break;
      if (
        answer.records.some(
          (record) =>
            (record.type === "CNAME" && record.data === routing.cnameTarget) ||
            (record.type === type && addresses.has(record.data)),
        )
      )
        return { kind: "proven" };
      // A server that does not recurse answers the CNAME alone: ask again at its target.
      const cname = answer.records.find((record) => record.type === "CNAME" && record.name === name);
      if (!cname || answer.records.some((record) => record.type === type)) break;
      name = cname.data;
    }
  }
  const wanted = [
    routing.cnameTarget && `a CNAME to ${routing.cnameTarget}`,
    routing.addresses.length > 0 && `an A/AAAA record to ${routing.addresses.join(", ")}`,
  ]
    .filter(Boolean)
    .join(" or ");
  return { kind: "gone", reason: `${hostname} does not point here (publish ${wanted || "the records shown"})` };
}

export async function checkDns(
  resolver: DnsResolver,
  hostname: string,
  token: string,
  routing: Routing,
): Promise<DnsCheck> {
  const txt = await checkTxt(resolver, hostname, token);
  if (txt.kind !== "proven") return txt;
  return checkRouting(resolver, hostname, routing);
}
