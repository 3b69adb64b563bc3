// The tables services query, of the engine this process runs on. drizzle builds SQL from the table objects,
// so a PostgreSQL database needs pg-core tables; both schemas have one shape (tests/unit/schema-parity.test.ts)
// and are typed as the SQLite one (postgres/portable.ts). A process runs one engine: openPlatform switches
// these once, at start, so they must be read inside functions, never captured at module scope
// (tests/unit/table-captures.test.ts).
import { portable } from "./postgres/portable.ts";
import * as pg from "./postgres/schema.ts";
import * as sqlite from "./sqlite/schema.ts";

export let users = sqlite.users;
export let links = sqlite.links;
export let subscriptions = sqlite.subscriptions;
export let payments = sqlite.payments;
export let viewRollups = sqlite.viewRollups;
export let userConsents = sqlite.userConsents;
export let sessions = sqlite.sessions;
export let apiTokens = sqlite.apiTokens;
export let loginLinks = sqlite.loginLinks;
export let stripeEvents = sqlite.stripeEvents;
export let views = sqlite.views;
export let userAgents = sqlite.userAgents;
export let retiredUserSlugs = sqlite.retiredUserSlugs;
export let viewVisitors = sqlite.viewVisitors;
export let domains = sqlite.domains;
export let hostMapVersion = sqlite.hostMapVersion;
export let linkTotals = sqlite.linkTotals;
export let referrerRollups = sqlite.referrerRollups;
export let linkRules = sqlite.linkRules;
export let threatEntries = sqlite.threatEntries;
export let abuseReports = sqlite.abuseReports;
export let auditLog = sqlite.auditLog;
export let threatFeeds = sqlite.threatFeeds;
export let destinations = sqlite.destinations;
export let webhookEndpoints = sqlite.webhookEndpoints;
export let webhookDeliveries = sqlite.webhookDeliveries;
export let linkOldAddresses = sqlite.linkOldAddresses;

export function useTablesOf(kind: "sqlite" | "postgres"): void {
  const from = kind === "postgres" ? portable(pg) : sqlite;
  ({
    users,
    links,
    subscriptions,
    payments,
    viewRollups,
    userConsents,
    sessions,
    apiTokens,
    loginLinks,
    stripeEvents,
    views,
    userAgents,
    retiredUserSlugs,
    viewVisitors,
    domains,
    hostMapVersion,
    linkTotals,
    referrerRollups,
    linkRules,
    threatEntries,
    abuseReports,
    auditLog,
    threatFeeds,
    destinations,
    webhookEndpoints,
    webhookDeliveries,
    linkOldAddresses,
  } = from);
}

export type { Link, Subscription, User } from "./sqlite/schema.ts";
export type Domain = typeof sqlite.domains.$inferSelect;
