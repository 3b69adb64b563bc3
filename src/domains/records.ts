// The DNS records an owner publishes for a domain: the TXT token, and how the host reaches this instance (a CNAME
// for a subdomain; A/AAAA for an apex, which cannot have a CNAME; without addresses configured, a CNAME there too,
// which DNS providers publish flattened: ALIAS, ANAME).
import { getDomain } from "tldts";
import type { Routing } from "./check-dns.ts";
import { txtNameOf } from "./model.ts";

export type DnsRecordToPublish = { type: "TXT" | "CNAME" | "A" | "AAAA"; name: string; value: string };

export const isApex = (hostname: string) => getDomain(hostname) === hostname;

export function recordsFor(hostname: string, token: string, routing: Routing): DnsRecordToPublish[] {
  const txt: DnsRecordToPublish = { type: "TXT", name: txtNameOf(hostname), value: token };
  const addresses = routing.addresses.map(
    (address): DnsRecordToPublish => ({ type: address.includes(":") ? "AAAA" : "A", name: hostname, value: address }),
  );
  if ((!isApex(hostname) || addresses.length === 0) && routing.cnameTarget)
    return [txt, { type: "CNAME", name: hostname, value: routing.cnameTarget }];
  return [txt, ...addresses];
}
