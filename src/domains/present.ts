// A domain row as the API shows it.
import type { Domain } from "../db/tables.ts";
import type { Routing } from "./check-dns.ts";
import { txtNameOf } from "./model.ts";
import { recordsFor } from "./records.ts";
import type { DomainJson } from "./wire.ts";

export function presentDomain(domain: Domain, routing: Routing, links: number): DomainJson {
  return {
    id: domain.id,
    hostname: domain.hostname,
    status: domain.status as DomainJson["status"],
    reason: domain.reason,
    lastCheckedAt: domain.lastCheckedAt?.toISOString() ?? null,
    rootUrl: domain.rootUrl,
    notFoundUrl: domain.notFoundUrl,
    appleAppSiteAssociation: domain.appleAppSiteAssociation,
    assetLinks: domain.assetLinks,
    verification: { txtName: txtNameOf(domain.hostname), txtValue: domain.verificationToken },
    records: recordsFor(domain.hostname, domain.verificationToken, routing),
    links,
    createdAt: domain.createdAt.toISOString(),
  };
}
