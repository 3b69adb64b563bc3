// Every served custom domain by hostname, in memory, for /go's host routing and Caddy's ask check: one map lookup
// per request, no database read. A domain not served (pending, invalid, its owner suspended) is not in it: its
// host shadows nothing (docs/decisions/0044). Reloaded whole (a small table) whenever a domain change is announced
// on the link change bus (every node, src/db/ports.ts ChangeBus), when changes may have been missed, and when the
// database's host_map_version moves: triggers bump it whoever writes (another process, such as the CLI).
import { eq, isNull, or } from "drizzle-orm";
import { entitlementFor } from "../plans/entitlement.ts";
import type { Change } from "../db/change.ts";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { Logger } from "../observability/log.ts";
import { isServed } from "./model.ts";
import { normaliseHost } from "./normalise-hostname.ts";

export type HostDomain = {
  id: number;
  hostname: string;
  userSlug: string;
  rootUrl: string | null;
  notFoundUrl: string | null;
  /** The app-link documents' text, served byte-exact at /.well-known/ (docs/decisions/0060), or null. */
  appleAppSiteAssociation: string | null;
  assetLinks: string | null;
};

/** How often the database's host_map_version is read: a change made by any process is served within a second. */
export const HOST_MAP_POLL_MS = 250;

export class DomainHosts {
  private byHost = new Map<string, HostDomain>();
  /** Bumped per reload asked for, so that an older reload finishing late does not win. */
  private generation = 0;
  /** host_map_version as read before the rows of the map held now. */
  private seenVersion: number | null = null;

  constructor(
    private readonly db: () => Db,
    private readonly billingEnabled: boolean,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Custom domains served; 0 means every host is the service's. */
  get size(): number {
    return this.byHost.size;
  }

  /** The served domain stored under exactly this name (Caddy's ask: no other spelling gets a certificate). */
  exactly(name: string): HostDomain | undefined {
    return this.byHost.get(name);
  }

  /** The served domain a Host header names (any form: case, trailing dot, port, IDN), or undefined. */
  lookup(host: string): HostDomain | undefined {
    const exact = this.byHost.get(host);
    if (exact !== undefined) return exact;
    const normalised = normaliseHost(host);
    return normalised === null ? undefined : this.byHost.get(normalised);
  }

  async reload(): Promise<void> {
    const { domains, users, workspaces } = tablesOf(this.db());
    const generation = ++this.generation;
    const db = this.db();
    // Read first: a change committed after it moves it again, and the next poll reloads.
    const version = await this.version();
    const rows = await db
      .select({
        id: domains.id,
        hostname: domains.hostname,
        status: domains.status,
        rootUrl: domains.rootUrl,
        notFoundUrl: domains.notFoundUrl,
        appleAppSiteAssociation: domains.appleAppSiteAssociation,
        assetLinks: domains.assetLinks,
        workspaceId: domains.workspaceId,
        // The first part of the short URLs it serves: its workspace's slug.
        userSlug: workspaces.slug,
        suspendedAt: users.suspendedAt,
      })
      .from(domains)
      .innerJoin(workspaces, eq(workspaces.id, domains.workspaceId))
      .innerJoin(users, eq(users.id, domains.userId))
      // A personal workspace's domains stop with its account's deletion; a team's outlive the member who added them.
      .where(or(isNull(users.deletingSince), isNull(workspaces.personalUserId)));
    const candidates = rows.filter((row) => isServed(row.status) && row.suspendedAt === null);
    const allowed = new Map<number, boolean>();
    for (const workspaceId of new Set(candidates.map((row) => row.workspaceId))) {
      const entitlement = await entitlementFor(db, this.billingEnabled, workspaceId, this.now());
      allowed.set(workspaceId, entitlement.active && entitlement.plan.domains > 0);
    }
    if (generation !== this.generation) return;
    this.seenVersion = version;
    // Verified or failing, of an active, unsuspended account whose plan includes domains.
    const served = candidates.filter((row) => allowed.get(row.workspaceId) === true);
    this.byHost = new Map(
      served.map((row) => [
        row.hostname,
        {
          id: row.id,
          hostname: row.hostname,
          userSlug: row.userSlug,
          rootUrl: row.rootUrl,
          notFoundUrl: row.notFoundUrl,
          appleAppSiteAssociation: row.appleAppSiteAssociation,
          assetLinks: row.assetLinks,
        },
      ]),
    );
  }

  private async version(): Promise<number> {
    const { hostMapVersion } = tablesOf(this.db());
    const [row] = await this.db().select({ version: hostMapVersion.version }).from(hostMapVersion);
    return Number(row?.version ?? 0);
  }

  /** Reloads if host_map_version moved (every HOST_MAP_POLL_MS: the job "host-map-watch", src/compose/server-jobs.ts). */
  async reloadIfMoved(): Promise<void> {
    if ((await this.version()) !== this.seenVersion) await this.reload();
  }

  /** For the change bus: reloads on a domain change, ignores link changes. */
  onChange(change: Change): void {
    // A user change: an account being deleted, whose domains stop being served.
    if (change.kind !== "link") this.reloadInBackground();
  }

  reloadInBackground(): void {
    this.reload().catch((error) => this.log.error("custom domains were not reloaded", error));
  }
}
