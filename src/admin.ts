// Work on the database directly, for the `linkprev admin …` commands and the start-up sign-in link.
import { and, asc, eq, isNotNull, like } from "drizzle-orm";
import type { Config } from "./config.ts";
import { openEngine, type Engine } from "./db/engine.ts";
import { loginLinks, sessions, users } from "./db/tables.ts";
import { createApiToken } from "./auth/api-tokens.ts";
import { createLoginLink } from "./auth/login-links.ts";
import { upsertUser } from "./auth/users.ts";

/** The configured database (SQLite in the data directory, or PostgreSQL), migrated. */
export async function openDatabase(config: Config): Promise<Engine> {
  const engine = await openEngine(config);
  await engine.migrate();
  return engine;
}

function splitName(name: string | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(" ") || null };
}

function ensureUser(engine: Engine, email: string, name?: string) {
  return upsertUser(engine, { email, ...splitName(name), profileImageUrl: null });
}

export async function loginLinkFor(engine: Engine, publicUrl: string, email: string, name?: string): Promise<string> {
  return createLoginLink(engine.db, (await ensureUser(engine, email, name)).id, publicUrl);
}

export async function apiTokenFor(engine: Engine, email: string, tokenName: string): Promise<string> {
  return (await createApiToken(engine.db, (await ensureUser(engine, email)).id, tokenName)).token;
}

/** A sign-in link for the instance owner: the first user, or owner@localhost on an empty server. */
export async function ownerLoginLink(engine: Engine, publicUrl: string): Promise<string> {
  const [owner] = await engine.db.select().from(users).orderBy(asc(users.id)).limit(1);
  return loginLinkFor(engine, publicUrl, owner?.email ?? "owner@localhost", owner ? undefined : "Owner");
}

/**
 * Whether the instance owner (the first user) has ever signed in: a sign-in link used (they are kept), a Google
 * account linked, or a session. Once they have, the start-up sign-in link is no longer printed.
 */
export async function ownerHasSignedIn(engine: Engine): Promise<boolean> {
  const [owner] = await engine.db.select({ id: users.id, googleSub: users.googleSub }).from(users).orderBy(asc(users.id)).limit(1);
  if (!owner) return false;
  if (owner.googleSub !== null) return true;
  const [used] = await engine.db.select({ userId: loginLinks.userId }).from(loginLinks).where(and(eq(loginLinks.userId, owner.id), isNotNull(loginLinks.usedAt))).limit(1);
  if (used) return true;
  // The session's JSON starts with the user id (src/auth/sessions.ts), as src/account/deletion.ts relies on too.
  const [session] = await engine.db.select({ sid: sessions.sid }).from(sessions).where(like(sessions.sess, `{"userId":${owner.id},%`)).limit(1);
  return session !== undefined;
}
