// Work on the database directly, for the `linkprev admin …` commands and the start-up sign-in link.
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { systemClock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import { openPlatform } from "../db/platform.ts";
import type { Database } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { createApiToken } from "../auth/api-tokens.ts";
import { personalMembership } from "../workspaces/membership.ts";
import { createLoginLink } from "../auth/login-links.ts";
import { upsertUser } from "../auth/users.ts";

/** The configured database (SQLite in the data directory, or PostgreSQL), migrated. */
export async function openDatabase(config: Config): Promise<Database> {
  const { database } = await openPlatform(config);
  await database.migrate();
  return database;
}

function splitName(name: string | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(" ") || null };
}

function ensureUser(database: Database, email: string, name?: string) {
  return upsertUser(database, { email, ...splitName(name), profileImageUrl: null }, systemClock.now());
}

export async function loginLinkFor(
  database: Database,
  publicUrl: string,
  email: string,
  name?: string,
): Promise<string> {
  return createLoginLink(database.db, (await ensureUser(database, email, name)).id, publicUrl, systemClock.now());
}

export async function apiTokenFor(database: Database, email: string, tokenName: string): Promise<string> {
  const user = await ensureUser(database, email);
  const personal = await personalMembership(database.db, user.id);
  return (await createApiToken(database.db, user.id, personal!.workspace.id, tokenName)).token;
}

/** A sign-in link for the instance owner: the first user, or owner@localhost on an empty server. */
export async function ownerLoginLink(database: Database, publicUrl: string): Promise<string> {
  const { users } = tablesOf(database.db);
  const [owner] = await database.db.select().from(users).orderBy(asc(users.id)).limit(1);
  return loginLinkFor(database, publicUrl, owner?.email ?? "owner@localhost", owner ? undefined : "Owner");
}

/**
 * Whether the instance owner (the first user) has ever signed in: a sign-in link used (they are kept), a Google
 * account linked, or a session. Once they have, the start-up sign-in link is no longer printed.
 */
export async function ownerHasSignedIn(database: Database): Promise<boolean> {
  const { loginLinks, sessions, users } = tablesOf(database.db);
  const [owner] = await database.db
    .select({ id: users.id, googleSub: users.googleSub })
    .from(users)
    .orderBy(asc(users.id))
    .limit(1);
  if (!owner) return false;
  if (owner.googleSub !== null) return true;
  const [used] = await database.db
    .select({ userId: loginLinks.userId })
    .from(loginLinks)
    .where(and(eq(loginLinks.userId, owner.id), isNotNull(loginLinks.usedAt)))
    .limit(1);
  if (used) return true;
  const [session] = await database.db
    .select({ sid: sessions.sid })
    .from(sessions)
    .where(eq(sessions.userId, owner.id))
    .limit(1);
  return session !== undefined;
}
