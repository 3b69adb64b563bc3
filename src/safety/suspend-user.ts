// `linkprev admin users suspend|unsuspend EMAIL`: a suspended account cannot sign in (src/auth/plugin.ts says
// why) and its live links are disabled; unsuspending enables the links the suspension disabled, no others.
import { and, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { audit } from "./audit.ts";
import type { SafetyDeps } from "./deps.ts";
import { announce, setLinkStatus } from "./link-status.ts";

const SUSPENDED = "The owner's account is suspended";

export async function setSuspended(
  deps: SafetyDeps,
  email: string,
  suspended: boolean,
  actor: string,
  why: string,
): Promise<number> {
  const { links, users } = tablesOf(deps.database.db);
  const at = new Date(deps.clock.now());
  const addresses = await deps.database.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
    if (!user) throw notFound(`No account with the e-mail address ${email}`);
    await tx
      .update(users)
      .set({ suspendedAt: suspended ? at : null })
      .where(eq(users.id, user.id));
    await audit(tx, { actor, action: suspended ? "user.suspend" : "user.unsuspend", subject: email, reason: why }, at);
    const affected = await tx
      .select({ id: links.id })
      .from(links)
      .where(
        suspended
          ? and(eq(links.userId, user.id), eq(links.status, "active"))
          : and(eq(links.userId, user.id), eq(links.disabledReason, SUSPENDED)),
      );
    const ids = affected.map((link) => link.id);
    return setLinkStatus(
      tx,
      deps.publicUrl,
      ids,
      suspended
        ? { status: "disabled", reason: SUSPENDED, actor, why }
        : { status: "active", reason: null, actor, why },
      at,
    );
  });
  await announce(deps.changes, addresses);
  // A suspended account's custom domains are no longer served, nor their certificates allowed, on any node
  // (as domains/deps.ts announceDomainChange does; safety sits below domains: .dependency-cruiser.cjs).
  await deps.changes.announceChange({ kind: "domains" });
  return addresses.length;
}

export const SUSPENDED_MESSAGE =
  "This account is suspended by the operators of this server. Contact them if you think this is a mistake.";
