// What the domain operations are given.
import type { Clock } from "../clock.ts";
import type { ChangeBus, Database } from "../db/ports.ts";
import type { Logger } from "../observability/log.ts";
import type { SafetyDeps } from "../safety/deps.ts";
import type { Routing } from "./check-dns.ts";
import type { DnsResolver } from "../safe-fetch/dns-resolver.ts";

export type DomainDeps = {
  database: Database;
  changes: ChangeBus;
  clock: Clock;
  log: Logger;
  resolver: DnsResolver;
  routing: Routing;
  /** PUBLIC_URL: its scheme is every short URL's. */
  publicUrl: string;
  /** This instance's own names (PUBLIC_URL's host, ALIAS_HOSTS, the CNAME target), normalised: never a custom domain, nor names under them. */
  ownHosts: readonly string[];
  billingEnabled: boolean;
  /** The destination checks a domain's root and not-found addresses pass (src/safety/domain-addresses.ts). */
  safety: SafetyDeps;
};

/** Every node's host map reloads (src/domains/host-map.ts). Never throws: it runs after the commit. */
export const announceDomainChange = (deps: Pick<DomainDeps, "changes">) =>
  deps.changes.announceChange({ kind: "domains" });

/** DNS checks per domain and minute ("Check now", the API, the CLI): each asks the resolver several questions. */
export const CHECKS_PER_MINUTE = 5;
