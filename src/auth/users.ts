// Users: created at first sign-in (Google, or a sign-in link on a self-hosted server), updated afterwards.
import { and, eq, sql } from "drizzle-orm";
import type { Database, Db } from "../db/ports.ts";
import { preparedOnce } from "../db/prepared.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { createPersonalWorkspace, personalBilling } from "../workspaces/personal.ts";
import { slugTaken } from "../workspaces/slugs.ts";

export type Profile = {
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  googleSub?: string;
};

/** A slug from the e-mail's local part: lowercase [a-z0-9_-], at most 20 characters, unique with a suffix. */
export function slugBaseFromEmail(email: string): string {
  const base = email
    .split("@")[0]!
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "")
    .slice(0, 20);
  return base || "user";
}

/** A slug no account, workspace or deleted one holds (src/workspaces/slugs.ts): its old short URLs stay dead. */
async function uniqueUserSlug(db: Db, email: string): Promise<string> {
  const base = slugBaseFromEmail(email);
  if (!(await slugTaken(db, base))) return base;
  for (let n = 2; ; n++) {
    const suffix = n < 1000 ? String(n) : crypto.randomUUID().slice(0, 6);
    const slug = `${base.slice(0, 20 - suffix.length)}${suffix}`;
    if (!(await slugTaken(db, slug))) return slug;
  }
}

/** Concurrent first sign-ins that all race for one e-mail or one slug settle within this many attempts. */
const UPSERT_ATTEMPTS = 5;

/**
 * Finds the user by Google subject or e-mail and refreshes the profile, or creates them. The slug never changes.
 * On PostgreSQL transactions run side by side (SQLite runs them one at a time): two first sign-ins of one person
 * (two tabs, a double click) or of two people whose e-mails share a local part can both find nothing and both
 * insert, and one then breaks a unique index. That one runs again and finds the user, or the next free slug.
 */
export async function upsertUser(database: Database, profile: Profile, now: number): Promise<User> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await upsertOnce(database, profile, now);
    } catch (error) {
      if (attempt >= UPSERT_ATTEMPTS || !database.isUniqueViolation(error)) throw error;
    }
  }
}

function upsertOnce(database: Database, profile: Profile, now: number): Promise<User> {
  const { users } = tablesOf(database.db);
  const email = profile.email.toLowerCase();
  return database.transaction(async (tx) => {
    const existing =
      (profile.googleSub
        ? (await tx.select().from(users).where(eq(users.googleSub, profile.googleSub)))[0]
        : undefined) ?? (await tx.select().from(users).where(eq(users.email, email)))[0];
    if (existing) {
      const [updated] = await tx
        .update(users)
        .set({
          email,
          firstName: profile.firstName ?? existing.firstName,
          lastName: profile.lastName ?? existing.lastName,
          profileImageUrl: profile.profileImageUrl ?? existing.profileImageUrl,
          googleSub: profile.googleSub ?? existing.googleSub,
          updatedAt: new Date(now),
        })
        .where(eq(users.id, existing.id))
        .returning();
      return updated!;
    }
    const [created] = await tx
      .insert(users)
      .values({
        email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        profileImageUrl: profile.profileImageUrl,
        googleSub: profile.googleSub ?? null,
        userSlug: await uniqueUserSlug(tx, email),
      })
      .returning();
    await createPersonalWorkspace(tx, created!);
    return created!;
  });
}

// Every signed-in request reads its user: built once (db/prepared.ts).
const userQuery = preparedOnce((db) => {
  const { users } = tablesOf(db);
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("userId")))
    .prepare();
});

export async function findUser(db: Db, userId: number): Promise<User | undefined> {
  return (await userQuery(db).execute({ userId }))[0];
}

export async function hasConsent(db: Db, userId: number): Promise<boolean> {
  const { userConsents } = tablesOf(db);
  const rows = await db
    .select({ id: userConsents.id })
    .from(userConsents)
    .where(
      and(
        eq(userConsents.userId, userId),
        eq(userConsents.termsAccepted, true),
        eq(userConsents.privacyAccepted, true),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function recordConsent(db: Db, userId: number): Promise<void> {
  const { userConsents } = tablesOf(db);
  await db.insert(userConsents).values({ userId, termsAccepted: true, privacyAccepted: true });
}

/** The current-user response: the API's user fields plus the consent flags. */
export async function publicUser(db: Db, user: User) {
  const [consented, bill] = await Promise.all([hasConsent(db, user.id), personalBilling(db, user.id)]);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    stripeCustomerId: bill.stripeCustomerId,
    userSlug: user.userSlug,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    needsConsent: !consented,
    hasConsent: consented,
  };
}

/** The account that signs in with this e-mail address (stored lowercased), if any. */
export async function findUserIdByEmail(db: Db, email: string): Promise<number | null> {
  const { users } = tablesOf(db);
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row?.id ?? null;
}
