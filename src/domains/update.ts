// PATCH /api/domains/:id: where / and unknown addresses on the domain go (null: the small page, the 404 page), and
// its app-link documents (validated by the route's schema, src/domains/wire.ts; null: none).
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { checkedDomainUrls } from "../safety/domain-addresses.ts";
import { indexDomainDestinations } from "../safety/destinations.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { findDomain, getDomain } from "./queries.ts";
import type { DomainJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function updateDomain(
  deps: DomainDeps,
  workspace: Workspace,
  id: number,
  input: {
    rootUrl?: string | null;
    notFoundUrl?: string | null;
    appleAppSiteAssociation?: string | null;
    assetLinks?: string | null;
  },
): Promise<DomainJson> {
  const { domains } = tablesOf(deps.database.db);
  const domain = await findDomain(deps.database.db, workspace, id);
  // Checked like every destination (feeds, blocked hosts, Web Risk) and indexed by host for later refreshes.
  const urls = await checkedDomainUrls(deps.safety, { rootUrl: input.rootUrl, notFoundUrl: input.notFoundUrl });
  // Stored as written: served byte-exact.
  const documents = {
    ...(input.appleAppSiteAssociation !== undefined && { appleAppSiteAssociation: input.appleAppSiteAssociation }),
    ...(input.assetLinks !== undefined && { assetLinks: input.assetLinks }),
  };
  await deps.database.transaction(async (tx) => {
    await tx
      .update(domains)
      .set({ ...urls, ...documents, updatedAt: new Date(deps.clock.now()) })
      .where(eq(domains.id, domain.id));
    await indexDomainDestinations(tx, domain.id, urls);
  });
  await announceDomainChange(deps);
  return getDomain(deps, workspace, id);
}
