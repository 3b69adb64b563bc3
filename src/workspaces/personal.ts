// A user's personal workspace (docs/decisions/0063): made with the account, in its transaction; its slug is the user
// slug, so the user's short URLs read as they always have.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";

const PERSONAL_NAME = "Personal";

export async function createPersonalWorkspace(tx: Db, user: Pick<User, "id" | "userSlug">): Promise<void> {
  const { workspaceMembers, workspaces } = tablesOf(tx);
  const [workspace] = await tx
    .insert(workspaces)
    .values({ slug: user.userSlug, name: PERSONAL_NAME, personalUserId: user.id })
    .returning({ id: workspaces.id });
  await tx.insert(workspaceMembers).values({ workspaceId: workspace!.id, userId: user.id, role: "owner" });
}

/** The bill of a user's personal workspace (docs/decisions/0069), shown where the account showed its own. */
export async function personalBilling(db: Db, userId: number) {
  const { workspaces } = tablesOf(db);
  const [bill] = await db
    .select({
      stripeCustomerId: workspaces.stripeCustomerId,
      vatCountryCode: workspaces.vatCountryCode,
      vatNumber: workspaces.vatNumber,
      vatCompanyName: workspaces.vatCompanyName,
    })
    .from(workspaces)
    .where(eq(workspaces.personalUserId, userId));
  return bill ?? { stripeCustomerId: null, vatCountryCode: null, vatNumber: null, vatCompanyName: null };
}
