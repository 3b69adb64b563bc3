// Sessions: the cookie holds a random token, the database its SHA-256. 30 days, extended on use.
import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { preparedOnce } from "../db/prepared.ts";
import { tablesOf } from "../db/tables.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

export const SESSION_COOKIE = "lp_session";
export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;
const SESSION_MS = SESSION_DAYS * DAY_MS;

/** The JSON kept in sess. userId is also the user_id column (what queries use); it stays here for an older release run after a rollback. */
type SessionData = { userId: number; createdAt: number };

export async function createSession(db: Db, userId: number, now: number): Promise<{ token: string; expiresAt: Date }> {
  const { sessions } = tablesOf(db);
  const token = generateSecret();
  const expiresAt = new Date(now + SESSION_MS);
  const data: SessionData = { userId, createdAt: now };
  await db.insert(sessions).values({ sid: hashSecret(token), userId, sess: JSON.stringify(data), expire: expiresAt });
  return { token, expiresAt };
}

// Every signed-in request reads its session: built once (db/prepared.ts).
const sessionQuery = preparedOnce((db) => {
  const { sessions } = tablesOf(db);
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.sid, sql.placeholder("sid")))
    .prepare();
});

/** The session's user id, or null when unknown or expired. Extends the expiry once half of it has passed. */
export async function validateSession(
  db: Db,
  token: string,
  now: number,
): Promise<{ userId: number; expiresAt: Date; extended: boolean } | null> {
  const { sessions } = tablesOf(db);
  const sid = hashSecret(token);
  const [row] = await sessionQuery(db).execute({ sid });
  if (!row) return null;
  if (row.expire.getTime() <= now) {
    await db.delete(sessions).where(eq(sessions.sid, sid));
    return null;
  }
  const { userId } = row;
  if (row.expire.getTime() - now < SESSION_MS / 2) {
    const expiresAt = new Date(now + SESSION_MS);
    await db.update(sessions).set({ expire: expiresAt }).where(eq(sessions.sid, sid));
    return { userId, expiresAt, extended: true };
  }
  return { userId, expiresAt: row.expire, extended: false };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  const { sessions } = tablesOf(db);
  await db.delete(sessions).where(eq(sessions.sid, hashSecret(token)));
}

export async function deleteExpiredSessions(db: Db, now: number): Promise<number> {
  const { sessions } = tablesOf(db);
  return (
    await db
      .delete(sessions)
      .where(lt(sessions.expire, new Date(now)))
      .returning({ sid: sessions.sid })
  ).length;
}
