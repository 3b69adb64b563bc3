// Work on a data directory directly, for the `linkprev admin …` commands and the start-up sign-in link.
import { asc } from "drizzle-orm";
import type { Config } from "./config.ts";
import { openDb, type Db } from "./db/connection.ts";
import { applyMigrations } from "./db/migrate.ts";
import { users } from "./db/schema.ts";
import { createApiToken } from "./auth/api-tokens.ts";
import { createLoginLink } from "./auth/login-links.ts";
import { upsertUser } from "./auth/users.ts";

export function openDataDir(config: Config) {
  const opened = openDb(config.dbPath);
  applyMigrations(opened.sqlite);
  return opened;
}

function splitName(name: string | undefined): { firstName: string | null; lastName: string | null } {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { firstName: parts[0] ?? null, lastName: parts.slice(1).join(" ") || null };
}

function ensureUser(db: Db, email: string, name?: string) {
  return upsertUser(db, { email, ...splitName(name), profileImageUrl: null });
}

export function loginLinkFor(db: Db, publicUrl: string, email: string, name?: string): string {
  return createLoginLink(db, ensureUser(db, email, name).id, publicUrl);
}

export function apiTokenFor(db: Db, email: string, tokenName: string): string {
  return createApiToken(db, ensureUser(db, email).id, tokenName).token;
}

/** A sign-in link for the instance owner: the first user, or owner@localhost on an empty server. */
export function ownerLoginLink(db: Db, publicUrl: string): string {
  const owner = db.select().from(users).orderBy(asc(users.id)).limit(1).get();
  return loginLinkFor(db, publicUrl, owner?.email ?? "owner@localhost", owner ? undefined : "Owner");
}
