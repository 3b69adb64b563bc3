// Sessions: the cookie holds a random token, the database its SHA-256. 30 days, extended on use.
import type { Changes } from "bun:sqlite";
import { eq, lt } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import { sessions } from "../db/schema.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

export const SESSION_COOKIE = "lp_session";
export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;
const SESSION_MS = SESSION_DAYS * DAY_MS;

type SessionData = { userId: number; createdAt: number };

export function createSession(db: Db, userId: number, now = Date.now()): { token: string; expiresAt: Date } {
  const token = generateSecret();
  const expiresAt = new Date(now + SESSION_MS);
  const data: SessionData = { userId, createdAt: now };
  db.insert(sessions).values({ sid: hashSecret(token), sess: JSON.stringify(data), expire: expiresAt }).run();
  return { token, expiresAt };
}

/** The session's user id, or null when unknown or expired. Extends the expiry once half of it has passed. */
export function validateSession(db: Db, token: string, now = Date.now()): { userId: number; expiresAt: Date; extended: boolean } | null {
  const sid = hashSecret(token);
  const row = db.select().from(sessions).where(eq(sessions.sid, sid)).get();
  if (!row) return null;
  if (row.expire.getTime() <= now) {
    db.delete(sessions).where(eq(sessions.sid, sid)).run();
    return null;
  }
  const { userId } = JSON.parse(row.sess) as SessionData;
  if (row.expire.getTime() - now < SESSION_MS / 2) {
    const expiresAt = new Date(now + SESSION_MS);
    db.update(sessions).set({ expire: expiresAt }).where(eq(sessions.sid, sid)).run();
    return { userId, expiresAt, extended: true };
  }
  return { userId, expiresAt: row.expire, extended: false };
}

export function deleteSession(db: Db, token: string): void {
  db.delete(sessions).where(eq(sessions.sid, hashSecret(token))).run();
}

export function deleteExpiredSessions(db: Db, now = Date.now()): number {
  return (db.delete(sessions).where(lt(sessions.expire, new Date(now))).run() as unknown as Changes).changes;
}
