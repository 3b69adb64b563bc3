// API tokens for the CLI and scripts: shown once, stored hashed, listed and revoked by their owner.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

const TOKEN_PREFIX = "lp_";
// last_used_at is refreshed at most this often, so that a busy script does not write on every call.
const LAST_USED_RESOLUTION_MS = 60_000;

const listed = (db: Db) => {
  const { apiTokens } = tablesOf(db);
  return {
    id: apiTokens.id,
    name: apiTokens.name,
    createdAt: apiTokens.createdAt,
    lastUsedAt: apiTokens.lastUsedAt,
  };
};

export async function createApiToken(db: Db, userId: number, workspaceId: number, name: string) {
  const { apiTokens } = tablesOf(db);
  const token = `${TOKEN_PREFIX}${generateSecret()}`;
  const [row] = await db
    .insert(apiTokens)
    .values({ userId, workspaceId, name, tokenHash: hashSecret(token) })
    .returning(listed(db));
  return { ...row!, token };
}

export function listApiTokens(db: Db, userId: number) {
  const { apiTokens } = tablesOf(db);
  return db.select(listed(db)).from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.id));
}

export async function revokeApiToken(db: Db, userId: number, tokenId: number): Promise<void> {
  const { apiTokens } = tablesOf(db);
  const removed = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  if (removed.length === 0) throw notFound("Token not found");
}

/** Whose token this is and the workspace it acts in; null for no such token. */
export async function apiTokenOwner(
  db: Db,
  token: string,
  now: number,
): Promise<{ userId: number; workspaceId: number } | null> {
  const { apiTokens } = tablesOf(db);
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashSecret(token)));
  if (!row) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiTokens.id, row.id));
  }
  return { userId: row.userId, workspaceId: row.workspaceId };
}
