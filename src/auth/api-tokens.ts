// API tokens for the CLI and scripts: shown once, stored hashed, listed and revoked by their owner.
import type { Changes } from "bun:sqlite";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import { apiTokens } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { generateSecret, hashSecret } from "./tokens.ts";

const TOKEN_PREFIX = "lp_";
// last_used_at is refreshed at most this often, so that a busy script does not write on every call.
const LAST_USED_RESOLUTION_MS = 60_000;

const listed = { id: apiTokens.id, name: apiTokens.name, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt };

export function createApiToken(db: Db, userId: number, name: string) {
  const token = `${TOKEN_PREFIX}${generateSecret()}`;
  const row = db.insert(apiTokens).values({ userId, name, tokenHash: hashSecret(token) }).returning(listed).get();
  return { ...row, token };
}

export function listApiTokens(db: Db, userId: number) {
  return db.select(listed).from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.id)).all();
}

export function revokeApiToken(db: Db, userId: number, tokenId: number): void {
  const { changes } = db.delete(apiTokens).where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId))).run() as unknown as Changes;
  if (changes === 0) throw notFound("Token not found");
}

export function userIdForApiToken(db: Db, token: string, now = Date.now()): number | null {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = db.select().from(apiTokens).where(eq(apiTokens.tokenHash, hashSecret(token))).get();
  if (!row) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    db.update(apiTokens).set({ lastUsedAt: new Date(now) }).where(eq(apiTokens.id, row.id)).run();
  }
  return row.userId;
}
