// Which workspace a request acts in, and as what (docs/decisions/0063): read once per signed-in request by
// src/auth/plugin.ts, so each of these is built once (db/prepared.ts) and walks a unique index.
import { and, eq, notExists, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { preparedOnce } from "../db/prepared.ts";
import { tablesOf } from "../db/tables.ts";
import type { Workspace } from "./acting.ts";
import type { Role } from "./model.ts";

export type Membership = { workspace: Workspace; role: Role };

/**
 * Not marked for removal: a workspace being deleted has its slug retired first (src/account/workspace-removal.ts),
 * and is nobody's to act in from then on, even while a crash leaves its removal for the next start to finish.
 */
export const notMarkedForRemoval = (db: Db) => {
  const { retiredUserSlugs, workspaces } = tablesOf(db);
  return notExists(
    db.select({ one: sql`1` }).from(retiredUserSlugs).where(eq(retiredUserSlugs.userSlug, workspaces.slug)),
  );
};

const membershipWhere = (db: Db, which: "slug" | "id" | "personal") => {
  const { workspaceMembers, workspaces } = tablesOf(db);
  const where =
    which === "slug"
      ? eq(workspaces.slug, sql.placeholder("key"))
      : which === "id"
        ? eq(workspaces.id, sql.placeholder("key"))
        : eq(workspaces.personalUserId, sql.placeholder("userId"));
  return db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaces)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, sql.placeholder("userId"))),
    )
    .where(and(where, notMarkedForRemoval(db)))
    .limit(1)
    .prepare();
};

const bySlug = preparedOnce((db) => membershipWhere(db, "slug"));
const byId = preparedOnce((db) => membershipWhere(db, "id"));
const personal = preparedOnce((db) => membershipWhere(db, "personal"));

/** The user's membership of the workspace with this slug; undefined when there is none (or no such workspace). */
export async function membershipBySlug(db: Db, userId: number, slug: string): Promise<Membership | undefined> {
  return (await bySlug(db).execute({ userId, key: slug }))[0];
}

/** The user's membership of the workspace with this id; undefined when there is none. */
export async function membershipById(db: Db, userId: number, workspaceId: number): Promise<Membership | undefined> {
  return (await byId(db).execute({ userId, key: workspaceId }))[0];
}

/** The user's personal workspace, where they are the owner (made at sign-up: personal.ts). */
export async function personalMembership(db: Db, userId: number): Promise<Membership | undefined> {
  return (await personal(db).execute({ userId }))[0];
}
