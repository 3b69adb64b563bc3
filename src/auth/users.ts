// Users: created at first sign-in (Google, or a sign-in link on a self-hosted server), updated afterwards.
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import { userConsents, users, type User } from "../db/schema.ts";

export type Profile = { email: string; firstName: string | null; lastName: string | null; profileImageUrl: string | null; googleSub?: string };

/** A slug from the e-mail's local part: lowercase [a-z0-9_-], at most 20 characters, unique with a suffix. */
export function slugBaseFromEmail(email: string): string {
  const base = email.split("@")[0]!.toLowerCase().replace(/[^a-z0-9_-]+/g, "").slice(0, 20);
  return base || "user";
}

function uniqueUserSlug(db: Db, email: string): string {
  const base = slugBaseFromEmail(email);
  const taken = (slug: string) => db.select({ id: users.id }).from(users).where(eq(users.userSlug, slug)).get() !== undefined;
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = n < 1000 ? String(n) : crypto.randomUUID().slice(0, 6);
    const slug = `${base.slice(0, 20 - suffix.length)}${suffix}`;
    if (!taken(slug)) return slug;
  }
}

/** Finds the user by Google subject or e-mail and refreshes the profile, or creates them. The slug never changes. */
export function upsertUser(db: Db, profile: Profile): User {
  const email = profile.email.toLowerCase();
  return db.transaction((tx) => {
    const existing =
      (profile.googleSub ? tx.select().from(users).where(eq(users.googleSub, profile.googleSub)).get() : undefined) ??
      tx.select().from(users).where(eq(users.email, email)).get();
    if (existing) {
      return tx
        .update(users)
        .set({
          email,
          firstName: profile.firstName ?? existing.firstName,
          lastName: profile.lastName ?? existing.lastName,
          profileImageUrl: profile.profileImageUrl ?? existing.profileImageUrl,
          googleSub: profile.googleSub ?? existing.googleSub,
          updatedAt: new Date(),
        })
        .where(eq(users.id, existing.id))
        .returning()
        .get();
    }
    return tx
      .insert(users)
      .values({
        email,
        firstName: profile.firstName,
        lastName: profile.lastName,
        profileImageUrl: profile.profileImageUrl,
        googleSub: profile.googleSub ?? null,
        userSlug: uniqueUserSlug(tx as unknown as Db, email),
      })
      .returning()
      .get();
  }, { behavior: "immediate" });
}

export function findUser(db: Db, userId: number): User | undefined {
  return db.select().from(users).where(eq(users.id, userId)).get();
}

export function hasConsent(db: Db, userId: number): boolean {
  return (
    db
      .select({ n: sql<number>`1` })
      .from(userConsents)
      .where(sql`${userConsents.userId} = ${userId} AND ${userConsents.termsAccepted} = 1 AND ${userConsents.privacyAccepted} = 1`)
      .get() !== undefined
  );
}

export function recordConsent(db: Db, userId: number): void {
  db.insert(userConsents).values({ userId, termsAccepted: true, privacyAccepted: true }).run();
}

/** The current-user response: SPEC's User fields plus the consent flags. */
export function publicUser(db: Db, user: User) {
  const consented = hasConsent(db, user.id);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    stripeCustomerId: user.stripeCustomerId,
    userSlug: user.userSlug,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    needsConsent: !consented,
    hasConsent: consented,
  };
}
