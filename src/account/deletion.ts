// Account deletion (GDPR Art. 17): the account is marked first, which signs it out everywhere, frees its e-mail
// for a new account, takes its short URLs off /go and retires its user slug for good (no later account gets it); then each step below removes one kind of data, and every
// step can run again: a crash part-way leaves a marked account that the next request, or the next start,
// finishes. The order and what stays (payment records, detached) are in docs/decisions/0011.
import { removeAccountQrStyles } from "../links/qr-style-queries.ts";
import type { Clock } from "../clock.ts";
import { and, eq, inArray, isNotNull, notInArray, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { linkChange } from "../db/change.ts";
import type { ChangeBus, Database, Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { AppError, badRequest } from "../http/errors.ts";
import type { Logger } from "../observability/log.ts";
import type { ImageStore } from "../links/images/store.ts";
import { releaseImages, uploadsOfAccount } from "../links/images/usage.ts";

export type DeletionDeps = {
  database: Database;
  changes: ChangeBus;
  images: ImageStore;
  stripe: Stripe | null;
  clock: Clock;
  log: Logger;
  /** Tests only (TEST_CRASH_DURING_DELETE_AFTER): the process dies, as with kill -9, right after this step. */
  crashAfter?: string;
};

/** The steps after the mark, in order; each is idempotent. */
const STEPS = ["announce", "stripe", "images", "links", "access", "payments", "user"] as const;
export type DeletionStep = "mark" | (typeof STEPS)[number];

const STRIPE_FAILED =
  "Your account is signed out and its links are off, but Stripe could not cancel the subscription just now. Send the deletion again in a few minutes to finish it.";

/** Subscription states in which Stripe may still charge. */
const ENDED_STATUSES = ["canceled", "incomplete_expired"];

/** The e-mail a marked account holds until its row goes: unique, never deliverable (RFC 2606 .invalid). */
const placeholderEmail = (userId: number) => `deleted-${userId}@deleted.invalid`;

/** DELETE /api/account: checks the confirmation, then marks and deletes. */
export async function deleteAccount(deps: DeletionDeps, user: User, confirmEmail: string): Promise<void> {
  if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw badRequest("confirmEmail: Type the e-mail address of this account to confirm the deletion", "confirmEmail");
  }
  await markForDeletion(deps, user.id);
  await finishDeletion(deps, user.id);
}

async function markForDeletion(deps: DeletionDeps, userId: number): Promise<void> {
  const { links, users } = tablesOf(deps.database.db);
  const now = new Date(deps.clock.now());
  await deps.database.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ deletingSince: now, email: placeholderEmail(userId), googleSub: null, updatedAt: now })
      .where(and(eq(users.id, userId), sql`${users.deletingSince} IS NULL`));
    // /go serves live links only: from this commit on, none of the account's short URLs answers.
    await tx
      .update(links)
      .set({ deleted: true, deletedAt: now })
      .where(and(eq(links.userId, userId), eq(links.deleted, false)));
  });
  afterStep(deps, "mark");
}

/** Runs every step for an account already marked; safe to run again whatever step a crash stopped at. */
export async function finishDeletion(deps: DeletionDeps, userId: number): Promise<void> {
  for (const step of STEPS) {
    await runStep(deps, userId, step);
    afterStep(deps, step);
  }
}

/** At start (and before answering a retry): accounts a crash left marked. Errors are logged; the next start tries again. */
export async function finishMarkedDeletions(deps: DeletionDeps): Promise<number> {
  const { users } = tablesOf(deps.database.db);
  const marked = await deps.database.db.select({ id: users.id }).from(users).where(isNotNull(users.deletingSince));
  let finished = 0;
  for (const { id } of marked) {
    try {
      await finishDeletion(deps, id);
      finished++;
    } catch (error) {
      deps.log.error(`The deletion of account ${id} stopped again (it is retried at the next start)`, error);
    }
  }
  return finished;
}

function afterStep(deps: DeletionDeps, step: DeletionStep): void {
  if (deps.crashAfter === step) process.kill(process.pid, "SIGKILL");
}

async function runStep(deps: DeletionDeps, userId: number, step: (typeof STEPS)[number]): Promise<void> {
  const {
    abuseReports,
    apiTokens,
    destinations,
    domains,
    linkOldAddresses,
    linkRules,
    links,
    loginLinks,
    referrerRollups,
    retiredUserSlugs,
    sessions,
    subscriptions,
    userConsents,
    users,
    viewRollups,
    viewVisitors,
    views,
    webhookDeliveries,
    webhookEndpoints,
    workspaceMembers,
    workspaces,
  } = tablesOf(deps.database.db);
  const { db } = deps.database;
  switch (step) {
    case "announce": {
      // Every node's /go cache drops the account's addresses (they were live until the mark), and the slug retires.
      const [owner] = await db.select({ userSlug: users.userSlug }).from(users).where(eq(users.id, userId));
      if (!owner) return;
      // Retired while the row still holds the slug, so no crash can free it: uniqueUserSlug (src/auth/users.ts)
      // skips retired slugs, and /go answers 410 Gone under it once the caches below have dropped its addresses.
      await db.insert(retiredUserSlugs).values({ userSlug: owner.userSlug }).onConflictDoNothing();
      const slugs = await db.selectDistinct({ linkSlug: links.linkSlug }).from(links).where(eq(links.userId, userId));
      for (const { linkSlug } of slugs) await deps.changes.announceChange(linkChange(owner.userSlug, linkSlug));
      // And every other address cached under the slug (unknown ones, cached as not found), by its prefix.
      await deps.changes.announceChange({ kind: "user", userSlug: owner.userSlug });
      return;
    }
    case "stripe":
      return cancelSubscriptions(deps, userId);
    case "images":
      // Every file of every upload (renditions and kept source); one another account's live link shows stays.
      // The account's links are marked deleted, so they keep none; their rows, which name the files, go in the next step.
      return releaseImages(db, deps.images, await uploadsOfAccount(db, userId));
    case "links":
      // Children first, each in one statement (nothing cascades here, and PostgreSQL's views have no foreign key
      // anyway): raw views, per-day counts and referrers, the day's visitor hashes, rules and health, the per-host index, links; subscriptions too, Stripe has ended them.
      await deps.database.transactionWithoutForeignKeys(async (tx) => {
        const ownLinks = tx.select({ id: links.id }).from(links).where(eq(links.userId, userId));
        await tx.delete(views).where(eq(views.userId, userId));
        await tx.delete(viewRollups).where(inArray(viewRollups.linkId, ownLinks));
        await tx.delete(referrerRollups).where(inArray(referrerRollups.linkId, ownLinks));
        await tx.delete(viewVisitors).where(inArray(viewVisitors.linkId, ownLinks));
        await tx.delete(linkRules).where(inArray(linkRules.linkId, ownLinks));
        await tx.delete(abuseReports).where(inArray(abuseReports.linkId, ownLinks));
        await tx
          .delete(destinations)
          .where(
            or(
              inArray(destinations.linkId, ownLinks),
              inArray(
                destinations.domainId,
                tx.select({ id: domains.id }).from(domains).where(eq(domains.userId, userId)),
              ),
            ),
          );
        await tx.delete(linkOldAddresses).where(eq(linkOldAddresses.userId, userId));
        await removeAccountQrStyles(tx, userId);
        await tx.delete(links).where(eq(links.userId, userId));
        // Its custom domains: free for anyone to add again (the announce step already stopped serving them).
        await tx.delete(domains).where(eq(domains.userId, userId));
        await tx.delete(subscriptions).where(eq(subscriptions.userId, userId));
      });
      return;
    case "access":
      await deps.database.transaction(async (tx) => {
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
        // Webhook endpoints hold secrets too; their pending deliveries are never sent.
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.userId, userId));
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
        await tx.delete(loginLinks).where(eq(loginLinks.userId, userId));
        await tx.delete(userConsents).where(eq(userConsents.userId, userId));
      });
      return;
    case "payments":
      await detachPayments(db, userId);
      return;
    case "user":
      await deps.database.transactionWithoutForeignKeys(async (tx) => {
        // Views the writer stored while the mark was on its way to every /go cache, and what a late Stripe
        // webhook recorded since the steps above; every other child is gone.
        await tx.delete(views).where(eq(views.userId, userId));
        // Visitor hashes the writer stored since for those views: only a deleted account's links are ever
        // removed (a deleted link keeps its row), so the hashes of links that no longer exist are theirs.
        await tx.delete(viewVisitors).where(notInArray(viewVisitors.linkId, tx.select({ id: links.id }).from(links)));
        await tx.delete(subscriptions).where(eq(subscriptions.userId, userId));
        await detachPayments(tx, userId);
        // Its memberships, and its personal workspace (emptied by the steps above; its slug retired with the user's);
        // the links it last edited elsewhere keep no trace of it (foreign keys do not act in this transaction).
        await tx.update(links).set({ updatedByUserId: null }).where(eq(links.updatedByUserId, userId));
        await tx.delete(workspaceMembers).where(eq(workspaceMembers.userId, userId));
        await tx.delete(workspaces).where(eq(workspaces.personalUserId, userId));
        await tx.delete(users).where(and(eq(users.id, userId), isNotNull(users.deletingSince)));
      });
      return;
  }
}

/** Kept for the invoices (amount, currency, status, date and Stripe's ids); nothing that names the person. */
async function detachPayments(db: Db, userId: number): Promise<void> {
  const { payments } = tablesOf(db);
  await db
    .update(payments)
    .set({ userId: null, paymentMethod: null, receiptUrl: null })
    .where(eq(payments.userId, userId));
}

/** Ends every subscription that could still charge, at once (not at the period's end). */
async function cancelSubscriptions(deps: DeletionDeps, userId: number): Promise<void> {
  const { subscriptions } = tablesOf(deps.database.db);
  const open = await deps.database.db
    .select({ id: subscriptions.id, stripeSubscriptionId: subscriptions.stripeSubscriptionId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), notInArray(subscriptions.status, ENDED_STATUSES)));
  if (open.length === 0) return;
  if (!deps.stripe) throw new Error("the account has a subscription but Stripe is not configured");
  for (const { id, stripeSubscriptionId } of open) {
    try {
      await deps.stripe.subscriptions.cancel(stripeSubscriptionId);
    } catch (error) {
      // Already gone at Stripe: nothing left to end.
      if ((error as { statusCode?: number }).statusCode !== 404) {
        deps.log.error(`Account ${userId}: Stripe did not cancel ${stripeSubscriptionId}`, error);
        throw new AppError(502, STRIPE_FAILED);
      }
    }
    await deps.database.db
      .update(subscriptions)
      .set({ status: "canceled", updatedAt: new Date(deps.clock.now()) })
      .where(eq(subscriptions.id, id));
  }
}
