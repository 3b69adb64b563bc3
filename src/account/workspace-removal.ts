// Removing one workspace's data: what deleting a team workspace (DELETE /api/workspaces/{id}) and deleting an account
// (its personal workspace, src/account/deletion.ts) both do. The workspace is marked first (its slug retired and its
// links off /go in one transaction); then each step removes one kind of data and can run again, so a crash part-way
// is finished by the next start (finishMarkedWorkspaceRemovals). Reasons in docs/decisions/0070.
import { and, eq, inArray, isNull, notInArray } from "drizzle-orm";
import type Stripe from "stripe";
import type { Clock } from "../clock.ts";
import { linkChange } from "../db/change.ts";
import type { ChangeBus, Database, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { AppError } from "../http/errors.ts";
import type { ImageStore } from "../links/images/store.ts";
import { releaseImages, uploadsOfWorkspace } from "../links/images/usage.ts";
import { removeWorkspaceQrStyles } from "../links/qr-style-queries.ts";
import type { Logger } from "../observability/log.ts";
import type { Workspace } from "../workspaces/acting.ts";

export type RemovalDeps = {
  database: Database;
  changes: ChangeBus;
  images: ImageStore;
  stripe: Stripe | null;
  clock: Clock;
  log: Logger;
  /** Tests only (TEST_CRASH_DURING_DELETE_AFTER): the process dies, as with kill -9, right after this step. */
  crashAfter?: string;
};

/** The workspace steps, in order; each is idempotent. */
export const WORKSPACE_STEPS = ["announce", "stripe", "images", "links", "access"] as const;
export type WorkspaceStep = (typeof WORKSPACE_STEPS)[number];

/** What a 502 says when Stripe cannot cancel (the account's deletion says it its own way). */
export const WORKSPACE_STRIPE_FAILED =
  "The workspace's short URLs are off, but Stripe could not cancel its subscription just now. Send the deletion again in a few minutes to finish it.";

/** Subscription states in which Stripe may still charge. */
const ENDED_STATUSES = ["canceled", "incomplete_expired"];

export function afterStep(deps: RemovalDeps, step: string): void {
  if (deps.crashAfter === step) process.kill(process.pid, "SIGKILL");
}

/** Retires the slug (410 on /go for good, never given again) and takes the links off /go, in one transaction. */
export async function markWorkspaceForRemoval(deps: RemovalDeps, workspaceId: number, slug: string): Promise<void> {
  const now = new Date(deps.clock.now());
  await deps.database.transaction((tx) => markWorkspaceRows(tx, workspaceId, slug, now));
}

/** The mark's rows, inside the caller's transaction (an account's deletion marks its personal workspace with itself). */
export async function markWorkspaceRows(tx: Db, workspaceId: number, slug: string, now: Date): Promise<void> {
  const { links, retiredUserSlugs } = tablesOf(tx);
  await tx.insert(retiredUserSlugs).values({ userSlug: slug }).onConflictDoNothing();
  await tx
    .update(links)
    .set({ deleted: true, deletedAt: now })
    .where(and(eq(links.workspaceId, workspaceId), eq(links.deleted, false)));
}

/** DELETE /api/workspaces/{id}, once confirmed (src/workspaces/delete.ts): marks, then removes. */
export async function removeWorkspace(deps: RemovalDeps, workspace: Workspace): Promise<void> {
  await markWorkspaceForRemoval(deps, workspace.id, workspace.slug);
  afterStep(deps, "mark");
  await finishWorkspaceRemoval(deps, workspace.id);
}

/** A team workspace after its mark: every step, then its row. Safe to run again. */
export async function finishWorkspaceRemoval(deps: RemovalDeps, workspaceId: number): Promise<void> {
  for (const step of WORKSPACE_STEPS) {
    await runWorkspaceStep(deps, workspaceId, step, WORKSPACE_STRIPE_FAILED);
    afterStep(deps, step);
  }
  const { workspaces } = tablesOf(deps.database.db);
  await deps.database.db.delete(workspaces).where(eq(workspaces.id, workspaceId));
}

/** At start: team workspaces a crash left marked (a slug retired while its workspace is still there). */
export async function finishMarkedWorkspaceRemovals(deps: RemovalDeps): Promise<number> {
  const { retiredUserSlugs, workspaces } = tablesOf(deps.database.db);
  const marked = await deps.database.db
    .select({ id: workspaces.id })
    .from(workspaces)
    .innerJoin(retiredUserSlugs, eq(retiredUserSlugs.userSlug, workspaces.slug))
    .where(isNull(workspaces.personalUserId));
  let finished = 0;
  for (const { id } of marked) {
    try {
      await finishWorkspaceRemoval(deps, id);
      finished++;
    } catch (error) {
      deps.log.error(`The deletion of workspace ${id} stopped again (it is retried at the next start)`, error);
    }
  }
  return finished;
}

export async function runWorkspaceStep(
  deps: RemovalDeps,
  workspaceId: number,
  step: WorkspaceStep,
  stripeFailed: string,
): Promise<void> {
  const {
    abuseReports,
    apiTokens,
    destinations,
    domains,
    linkOldAddresses,
    linkRules,
    links,
    referrerRollups,
    subscriptions,
    viewRollups,
    viewVisitors,
    views,
    webhookDeliveries,
    webhookEndpoints,
    workspaceInvites,
    workspaces,
  } = tablesOf(deps.database.db);
  const { db } = deps.database;
  switch (step) {
    case "announce": {
      // Every node's /go cache drops the workspace's addresses (they were live until the mark).
      const [workspace] = await db
        .select({ slug: workspaces.slug })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId));
      if (!workspace) return;
      const slugs = await db
        .selectDistinct({ linkSlug: links.linkSlug })
        .from(links)
        .where(eq(links.workspaceId, workspaceId));
      for (const { linkSlug } of slugs) await deps.changes.announceChange(linkChange(workspace.slug, linkSlug));
      // And every other address cached under the slug (unknown ones, cached as not found), by its prefix.
      await deps.changes.announceChange({ kind: "user", userSlug: workspace.slug });
      return;
    }
    case "stripe":
      return cancelSubscriptions(deps, workspaceId, stripeFailed);
    case "images":
      // Every file of every upload its links hold; one another workspace's live link shows stays.
      return releaseImages(db, deps.images, await uploadsOfWorkspace(db, workspaceId));
    case "links":
      // Children first, each in one statement (nothing cascades here, and PostgreSQL's views have no foreign key
      // anyway): raw views, per-day counts and referrers, the day's visitor hashes, rules, reports, destinations,
      // old addresses, QR styles, links; its custom domains (free for anyone to add again) and subscriptions.
      await deps.database.transactionWithoutForeignKeys(async (tx) => {
        const ownLinks = tx.select({ id: links.id }).from(links).where(eq(links.workspaceId, workspaceId));
        await tx.delete(views).where(inArray(views.linkId, ownLinks));
        await tx.delete(viewRollups).where(inArray(viewRollups.linkId, ownLinks));
        await tx.delete(referrerRollups).where(inArray(referrerRollups.linkId, ownLinks));
        await tx.delete(viewVisitors).where(inArray(viewVisitors.linkId, ownLinks));
        await tx.delete(linkRules).where(inArray(linkRules.linkId, ownLinks));
        await tx.delete(abuseReports).where(inArray(abuseReports.linkId, ownLinks));
        const ownDomains = tx.select({ id: domains.id }).from(domains).where(eq(domains.workspaceId, workspaceId));
        await tx.delete(destinations).where(inArray(destinations.linkId, ownLinks));
        await tx.delete(destinations).where(inArray(destinations.domainId, ownDomains));
        await tx.delete(linkOldAddresses).where(eq(linkOldAddresses.workspaceId, workspaceId));
        await removeWorkspaceQrStyles(tx, workspaceId);
        await tx.delete(links).where(eq(links.workspaceId, workspaceId));
        await tx.delete(domains).where(eq(domains.workspaceId, workspaceId));
        await tx.delete(subscriptions).where(eq(subscriptions.workspaceId, workspaceId));
      });
      // Every node's host map stops serving its domains.
      await deps.changes.announceChange({ kind: "domains" });
      return;
    case "access":
      await deps.database.transaction(async (tx) => {
        await tx.delete(apiTokens).where(eq(apiTokens.workspaceId, workspaceId));
        // Webhook endpoints hold secrets too; their pending deliveries are never sent.
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, workspaceId));
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
        await tx.delete(workspaceInvites).where(eq(workspaceInvites.workspaceId, workspaceId));
      });
      return;
  }
}

/** Ends every subscription of the workspace that could still charge, at once (not at the period's end). */
async function cancelSubscriptions(deps: RemovalDeps, workspaceId: number, stripeFailed: string): Promise<void> {
  const { subscriptions } = tablesOf(deps.database.db);
  const open = await deps.database.db
    .select({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.workspaceId, workspaceId), notInArray(subscriptions.status, ENDED_STATUSES)));
  if (open.length === 0) return;
  if (!deps.stripe) throw new Error("the workspace has a subscription but Stripe is not configured");
  for (const { id, stripeSubscriptionId } of open) {
    try {
      await deps.stripe.subscriptions.cancel(stripeSubscriptionId);
    } catch (error) {
      // Already gone at Stripe: nothing left to end.
      if ((error as { statusCode?: number }).statusCode !== 404) {
        deps.log.error(`Workspace ${workspaceId}: Stripe did not cancel ${stripeSubscriptionId}`, error);
        throw new AppError(502, stripeFailed);
      }
    }
    await deps.database.db
      .update(subscriptions)
      .set({ status: "canceled", updatedAt: new Date(deps.clock.now()) })
      .where(eq(subscriptions.id, id));
  }
}
