// One-time sign-in links for self-hosted servers without Google: one use, 15 minutes.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

export const LOGIN_LINK_MINUTES = 15;

export async function createLoginLink(db: Db, userId: number, publicUrl: string, now: number): Promise<string> {
  const { loginLinks } = tablesOf(db);
  const token = generateSecret();
  await db
    .insert(loginLinks)
    .values({ tokenHash: hashSecret(token), userId, expiresAt: new Date(now + LOGIN_LINK_MINUTES * 60_000) });
  return `${publicUrl}/login/${token}`;
}

/** Marks the link used and returns its user, or null when unknown, used or expired. */
export async function consumeLoginLink(db: Db, token: string, now: number): Promise<number | null> {
  const { loginLinks } = tablesOf(db);
  const [row] = await db
    .update(loginLinks)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(loginLinks.tokenHash, hashSecret(token)),
        isNull(loginLinks.usedAt),
        gt(loginLinks.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: loginLinks.userId });
  return row?.userId ?? null;
}
