// What a create or an edit must pass before anything is written: the plan allows it, the slug is free and
// not ours, the target is no short URL of ours, an external image is an http(s) URL.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { entitlementFor } from "../plans/entitlement.ts";
import { badRequest, conflict, forbidden, paymentRequired } from "../http/errors.ts";
import { SLUG_RESERVED, SLUG_TAKEN, type LinkDeps } from "./deps.ts";
import { isHttpUrl } from "./model.ts";
import { slugInUse, total } from "./queries.ts";
import { isReservedSlug } from "./slugs.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** A custom slug the workspace may take: their plan allows it, it is not ours, and it is free (but for `linkId`'s own earlier addresses). */
export async function checkCustomSlug(
  deps: LinkDeps,
  workspace: Workspace,
  slug: string,
  linkId?: number,
): Promise<void> {
  const { plan } = await entitlementFor(deps.database.db, deps.billingEnabled, workspace.id, deps.clock.now());
  if (!plan.customSlugs)
    throw forbidden("Custom URLs are available on the Pro and Enterprise plans. Upgrade at /pricing.");
  if (isReservedSlug(slug)) throw badRequest(`customLinkSlug: ${SLUG_RESERVED}`, "customLinkSlug");
  if (await slugInUse(deps.database.db, workspace.id, slug, linkId)) throw conflict(SLUG_TAKEN);
}

export async function checkTarget(deps: LinkDeps, targetUrl: string): Promise<void> {
  // Any address of this server, not only /go/: other names of it, and custom domains, serve short links too.
  if (await deps.leadsHere(new URL(targetUrl))) {
    throw badRequest(
      "targetUrl: The target URL cannot be a LinkPrev short URL or another address of this server",
      "targetUrl",
    );
  }
}

export function checkExternalImage(imageUrl: string): void {
  if (!isHttpUrl(imageUrl)) throw badRequest("imageUrl: Image URL must be a valid http(s) URL", "imageUrl");
}

/** The user's entitlement, when it is active (a lapsed subscription may not create or edit links). */
export async function requireActive(db: Db, deps: LinkDeps, workspace: Workspace) {
  const entitlement = await entitlementFor(db, deps.billingEnabled, workspace.id, deps.clock.now());
  if (!entitlement.active)
    throw paymentRequired("You need an active subscription to create or edit links. See the plans at /pricing.");
  return entitlement;
}

/** Room for one more live link on the user's plan (0: no limit). */
export async function checkQuota(db: Db, deps: LinkDeps, workspace: Workspace): Promise<void> {
  const { links } = tablesOf(db);
  const { plan } = await requireActive(db, deps, workspace);
  if (plan.linkQuota === 0) return;
  const [{ live }] = await db
    .select({ live: total(sql`count(*)`) })
    .from(links)
    .where(and(eq(links.workspaceId, workspace.id), eq(links.deleted, false)));
  if (live >= plan.linkQuota) {
    throw forbidden(
      `You have used all ${plan.linkQuota} links of the ${plan.name} plan. Delete a link or upgrade at /pricing.`,
    );
  }
}
