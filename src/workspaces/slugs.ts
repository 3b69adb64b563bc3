// The one namespace of the first part of a short URL (docs/decisions/0063): user slugs (each is its personal
// workspace's slug), team workspaces' slugs and retired slugs. A slug in it is never handed out again.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export async function slugTaken(db: Db, slug: string): Promise<boolean> {
  const { retiredUserSlugs, users, workspaces } = tablesOf(db);
  const held = async (rows: Promise<unknown[]>) => (await rows).length > 0;
  return (
    (await held(db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug)).limit(1))) ||
    (await held(db.select({ id: users.id }).from(users).where(eq(users.userSlug, slug)).limit(1))) ||
    (await held(
      db
        .select({ slug: retiredUserSlugs.userSlug })
        .from(retiredUserSlugs)
        .where(eq(retiredUserSlugs.userSlug, slug))
        .limit(1),
    ))
  );
}
