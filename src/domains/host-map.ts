// Every custom domain by hostname, in memory, for /go's host routing and Caddy's ask check: one map lookup per
// request, no database read. Reloaded whole (a small table) whenever a domain change is announced on the link
// change bus (every node, src/db/ports.ts ChangeBus), and when changes may have been missed.
import { eq, isNull } from "drizzle-orm";
import { entitlementFor } from "../billing/entitlement.ts";
import type { Db } from "../db/ports.ts";
import { domains, users } from "../db/tables.ts";
import { DOMAINS_CHANGED, isServed } from "./model.ts";
import { normaliseHost } from "./normalise-hostname.ts";

export type HostDomain = {
  id: number;
  hostname: string;
  userSlug: string;
  /** Verified or failing, of an active, unsuspended account whose plan includes domains: its links are served, its certificate allowed. */
  served: boolean;
  rootUrl: string | null;
  notFoundUrl: string | null;
};

export class DomainHosts {
  private byHost = new Map<string, HostDomain>();
  /** Bumped per reload asked for, so that an older reload finishing late does not win. */
  private generation = 0;

  constructor(
    private readonly db: () => Db,
    private readonly billingEnabled: boolean,
    private readonly now: () => number,
  ) {}

  /** Custom domains known (any status); 0 means every host is the service's. */
  get size(): number {
    return this.byHost.size;
  }

  /** The domain a Host header names (any form: case, trailing dot, port, IDN), or undefined. */
  lookup(host: string): HostDomain | undefined {
    const exact = this.byHost.get(host);
    if (exact !== undefined) return exact;
    const normalised = normaliseHost(host);
    return normalised === null ? undefined : this.byHost.get(normalised);
  }

  async reload(): Promise<void> {
    const generation = ++this.generation;
    const db = this.db();
    const rows = await db
      .select({ id: domains.id, hostname: domains.hostname, status: domains.status, rootUrl: domains.rootUrl, notFoundUrl: domains.notFoundUrl, userId: domains.userId, userSlug: users.userSlug, suspendedAt: users.suspendedAt })
      .from(domains)
      .innerJoin(users, eq(users.id, domains.userId))
      .where(isNull(users.deletingSince));
    const allowed = new Map<number, boolean>();
    for (const userId of new Set(rows.map((row) => row.userId))) {
      const entitlement = await entitlementFor(db, this.billingEnabled, userId, this.now());
      allowed.set(userId, entitlement.active && entitlement.plan.domains > 0);
    }
    if (generation !== this.generation) return;
    this.byHost = new Map(
      rows.map((row) => [
        row.hostname,
        { id: row.id, hostname: row.hostname, userSlug: row.userSlug, served: isServed(row.status) && row.suspendedAt === null && allowed.get(row.userId) === true, rootUrl: row.rootUrl, notFoundUrl: row.notFoundUrl },
      ]),
    );
  }

  /** For the change bus: reloads on a domain change, ignores link keys. */
  onChange(key: string): void {
    // A user key ("slug/"): an account being deleted, whose domains stop being served.
    if (key === DOMAINS_CHANGED || key.endsWith("/")) this.reloadInBackground();
  }

  reloadInBackground(): void {
    this.reload().catch((error) => console.error(`custom domains were not reloaded: ${String(error)}`));
  }
}
