// API tokens for the CLI and scripts: shown once, stored hashed, listed and revoked in their workspace.
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { parsedScopes, type Scope, storedScopes } from "./token-scopes.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

const TOKEN_PREFIX = "lp_";
// last_used_at is refreshed at most this often, so that a busy script does not write on every call.
const LAST_USED_RESOLUTION_MS = 60_000;

const listed = (db: Db) => {
  const { apiTokens } = tablesOf(db);
  return {
    id: apiTokens.id,
    name: apiTokens.name,
    scopes: apiTokens.scopes,
    expiresAt: apiTokens.expiresAt,
    createdByUserId: apiTokens.userId,
    createdAt: apiTokens.createdAt,
    lastUsedAt: apiTokens.lastUsedAt,
  };
};

/** A token as listed: its scopes read back (null: every power its creator's role gives). */
const shown = <T extends { scopes: string | null }>(row: T) => ({ ...row, scopes: parsedScopes(row.scopes) });

/** What a new token may do: `scopes` (null: every power, as before scopes), until `expiresAt` (null: never). */
export type TokenGrant = { scopes: Scope[] | null; expiresAt: Date | null };

export async function createApiToken(
  db: Db,
  userId: number,
  workspaceId: number,
  name: string,
  grant: TokenGrant = { scopes: null, expiresAt: null },
) {
  const { apiTokens } = tablesOf(db);
  const token = `${TOKEN_PREFIX}${generateSecret()}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      userId,
      workspaceId,
      name,
      tokenHash: hashSecret(token),
      scopes: storedScopes(grant.scopes),
      expiresAt: grant.expiresAt,
    })
    .returning(listed(db));
  return { ...shown(row!), token };
}

export async function listApiTokens(db: Db, workspaceId: number) {
  const { apiTokens } = tablesOf(db);
  const rows = await db
    .select(listed(db))
    .from(apiTokens)
    .where(eq(apiTokens.workspaceId, workspaceId))
    .orderBy(desc(apiTokens.id));
  return rows.map(shown);
}

export async function revokeApiToken(db: Db, workspaceId: number, tokenId: number): Promise<void> {
  const { apiTokens } = tablesOf(db);
  const removed = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.workspaceId, workspaceId)))
    .returning({ id: apiTokens.id });
  if (removed.length === 0) throw notFound("Token not found");
}

/** Whose token this is, the workspace it acts in and its scopes; null for no such token, or one past its expiry. */
export async function apiTokenOwner(
  db: Db,
  token: string,
  now: number,
): Promise<{ tokenId: number; userId: number; workspaceId: number; scopes: Scope[] | null } | null> {
  const { apiTokens } = tablesOf(db);
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashSecret(token)));
  if (!row || (row.expiresAt !== null && row.expiresAt.getTime() <= now)) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiTokens.id, row.id));
  }
  return { tokenId: row.id, userId: row.userId, workspaceId: row.workspaceId, scopes: parsedScopes(row.scopes) };
}
