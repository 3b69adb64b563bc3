// `linkprev admin users trust|untrust EMAIL`: an operator vouches for an account, and the new-account limits
// (src/safety/limits.ts) stop applying to it; the instance owner (the first user) never has them.
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { audit } from "./audit.ts";
import type { SafetyDeps } from "./deps.ts";

export async function setTrusted(
  deps: SafetyDeps,
  email: string,
  trusted: boolean,
  actor: string,
  why: string,
): Promise<void> {
  const { users } = tablesOf(deps.database.db);
  const at = new Date(deps.clock.now());
  await deps.database.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
    if (!user) throw notFound(`No account with the e-mail address ${email}`);
    await tx
      .update(users)
      .set({ trustedAt: trusted ? at : null })
      .where(eq(users.id, user.id));
    await audit(tx, { actor, action: trusted ? "user.trust" : "user.untrust", subject: email, reason: why }, at);
  });
}
