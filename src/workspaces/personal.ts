// A user's personal workspace (docs/decisions/0063): made with the account, in its transaction; its slug is the user
// slug, so the user's short URLs read as they always have.
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";

export const PERSONAL_NAME = "Personal";

export async function createPersonalWorkspace(tx: Db, user: Pick<User, "id" | "userSlug">): Promise<void> {
  const { workspaceMembers, workspaces } = tablesOf(tx);
  const [workspace] = await tx
    .insert(workspaces)
    .values({ slug: user.userSlug, name: PERSONAL_NAME, personalUserId: user.id })
    .returning({ id: workspaces.id });
  await tx.insert(workspaceMembers).values({ workspaceId: workspace!.id, userId: user.id, role: "owner" });
}
