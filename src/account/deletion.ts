// Account deletion (GDPR Art. 17): the account is marked first, which signs it out everywhere, frees its e-mail
// for a new account, takes its personal workspace's short URLs off /go and retires its slug for good (no later account
// gets it); then each step below removes one kind of data, and every step can run again: a crash part-way leaves a
// marked account that the next request, or the next start, finishes. The personal workspace goes by the steps every
// workspace removal takes (workspace-removal.ts); team workspaces keep their data, the account only leaves them
// (docs/decisions/0070). The order and what stays (payment records, detached) are in docs/decisions/0011.
import { and, eq, isNotNull, notInArray, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { soleOwnedWorkspaces } from "./sole-owner.ts";
import {
  afterStep,
  finishWorkspaceRemoval,
  markWorkspaceForRemoval,
  markWorkspaceRows,
  type RemovalDeps,
  runWorkspaceStep,
  WORKSPACE_STEPS,
} from "./workspace-removal.ts";

export type DeletionDeps = RemovalDeps;

/** The steps after the mark, in order; each is idempotent. */
const STEPS = [...WORKSPACE_STEPS, "payments", "user"] as const;
export type DeletionStep = "mark" | (typeof STEPS)[number];

const STRIPE_FAILED =
  "Your account is signed out and its links are off, but Stripe could not cancel the subscription just now. Send the deletion again in a few minutes to finish it.";

/** The e-mail a marked account holds until its row goes: unique, never deliverable (RFC 2606 .invalid). */
const placeholderEmail = (userId: number) => `deleted-${userId}@deleted.invalid`;

/** DELETE /api/account: checks the confirmation and that no team is left without an owner, then marks and deletes. */
export async function deleteAccount(deps: DeletionDeps, user: User, confirmEmail: string): Promise<void> {
  if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw badRequest("confirmEmail: Type the e-mail address of this account to confirm the deletion", "confirmEmail");
  }
  const owned = await soleOwnedWorkspaces(deps.database.db, user.id);
  const withOthers = owned.filter((workspace) => workspace.otherMembers > 0);
  if (withOthers.length > 0) {
    const { id, slug, name } = withOthers[0]!;
    throw conflict(
      `You are the only owner of the workspace ${name} (${slug}), which has other members: make one of them owner first (PATCH /api/workspaces/${id}/members/{userId} {"role":"owner"}, or Workspace settings → Members), then delete your account.`,
    );
  }
  // A team workspace nobody else is in goes with its only member, as a deleted workspace does.
  for (const { id, slug } of owned) {
    await markWorkspaceForRemoval(deps, id, slug);
    await finishWorkspaceRemoval(deps, id);
  }
  await markForDeletion(deps, user.id);
  await finishDeletion(deps, user.id);
}

async function markForDeletion(deps: DeletionDeps, userId: number): Promise<void> {
  const { users, workspaces } = tablesOf(deps.database.db);
  const now = new Date(deps.clock.now());
  await deps.database.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ deletingSince: now, email: placeholderEmail(userId), googleSub: null, updatedAt: now })
      .where(and(eq(users.id, userId), sql`${users.deletingSince} IS NULL`));
    // /go serves live links only: from this commit on, none of the personal workspace's short URLs answers.
    const [personal] = await tx
      .select({ id: workspaces.id, slug: workspaces.slug })
      .from(workspaces)
      .where(eq(workspaces.personalUserId, userId));
    if (personal) await markWorkspaceRows(tx, personal.id, personal.slug, now);
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
  const { users, workspaces } = tablesOf(deps.database.db);
  // Unfinished while its personal workspace is there (the last step removes it, with the row or keeping an id).
  const marked = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(workspaces, eq(workspaces.personalUserId, users.id))
    .where(isNotNull(users.deletingSince));
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

async function runStep(deps: DeletionDeps, userId: number, step: (typeof STEPS)[number]): Promise<void> {
  const {
    apiTokens,
    links,
    loginLinks,
    sessions,
    subscriptions,
    userConsents,
    users,
    viewVisitors,
    views,
    workspaceMembers,
    workspaces,
  } = tablesOf(deps.database.db);
  const { db } = deps.database;
  const [personal] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.personalUserId, userId));
  switch (step) {
    case "payments":
      await detachPayments(db, userId);
      return;
    case "user":
      await deps.database.transactionWithoutForeignKeys(async (tx) => {
        // Views the writer stored while the mark was on its way to every /go cache, with their visitor hashes (only
        // a removed workspace's links are ever deleted: a deleted link keeps its row), and what a late Stripe
        // webhook recorded since the steps above; every other child is gone.
        const existingLinks = tx.select({ id: links.id }).from(links);
        await tx.delete(views).where(notInArray(views.linkId, existingLinks));
        await tx.delete(viewVisitors).where(notInArray(viewVisitors.linkId, existingLinks));
        if (personal) await tx.delete(subscriptions).where(eq(subscriptions.workspaceId, personal.id));
        await detachPayments(tx, userId);
        // Its memberships and its personal workspace (emptied by the steps above); the team links it created stay
        // with their workspace, and the ones it last edited keep no trace of it.
        await tx.update(links).set({ updatedByUserId: null }).where(eq(links.updatedByUserId, userId));
        await tx.delete(workspaceMembers).where(eq(workspaceMembers.userId, userId));
        await tx.delete(workspaces).where(eq(workspaces.personalUserId, userId));
        // What it created in a team (links, domains, webhooks) names it as creator, and a creator's row going would
        // take them with it (PostgreSQL cascades): then the row stays as an id without a person (docs/decisions/0070).
        if (await createdInTeams(tx, userId))
          await tx
            .update(users)
            .set({
              firstName: null,
              lastName: null,
              profileImageUrl: null,
            })
            .where(eq(users.id, userId));
        else await tx.delete(users).where(and(eq(users.id, userId), isNotNull(users.deletingSince)));
      });
      return;
    default:
      if (personal) await runWorkspaceStep(deps, personal.id, step, STRIPE_FAILED);
      if (step === "access")
        await deps.database.transaction(async (tx) => {
          // Signed out everywhere; the tokens it made in team workspaces are revoked with it.
          await tx.delete(sessions).where(eq(sessions.userId, userId));
          await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
          await tx.delete(loginLinks).where(eq(loginLinks.userId, userId));
          await tx.delete(userConsents).where(eq(userConsents.userId, userId));
        });
      return;
  }
}

/** Whether the account created a link, domain or webhook that a team workspace keeps (its own are gone by now). */
async function createdInTeams(db: Db, userId: number): Promise<boolean> {
  const { domains, links, webhookEndpoints } = tablesOf(db);
  const [link] = await db.select({ id: links.id }).from(links).where(eq(links.userId, userId)).limit(1);
  const [domain] = await db.select({ id: domains.id }).from(domains).where(eq(domains.userId, userId)).limit(1);
  const [webhook] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .limit(1);
  return Boolean(link ?? domain ?? webhook);
}

/** Kept for the invoices (amount, currency, status, date and Stripe's ids); nothing that names the person. */
async function detachPayments(db: Db, userId: number): Promise<void> {
  const { payments } = tablesOf(db);
  await db
    .update(payments)
    .set({ userId: null, paymentMethod: null, receiptUrl: null })
    .where(eq(payments.userId, userId));
}
