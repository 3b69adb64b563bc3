// A live link named by its short address: `user/link`, `/go/user/link`, a full short URL, with or without a version
// or the inspect `+`.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { links, users } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";

export function parseAddress(address: string): { userSlug: string; linkSlug: string } | null {
  let path = address.trim();
  if (URL.canParse(path)) path = new URL(path).pathname;
  const parts = path.replace(/^\/+|\/+$/g, "").replace(/^go\//, "").split("/");
  if (parts.length < 2 || parts.length > 3) return null;
  let decoded: string[];
  try {
    decoded = parts.map((part) => decodeURIComponent(part).replace(/\+$/, ""));
  } catch {
    return null;
  }
  const [userSlug, linkSlug] = decoded;
  return userSlug && linkSlug ? { userSlug, linkSlug } : null;
}

export async function findLinkByAddress(db: Db, address: string) {
  const parsed = parseAddress(address);
  const [row] = parsed
    ? await db
        .select({ id: links.id, userId: links.userId, userSlug: users.userSlug, linkSlug: links.linkSlug, targetUrl: links.targetUrl, status: links.status, disabledReason: links.disabledReason, createdAt: links.createdAt })
        .from(links)
        .innerJoin(users, eq(users.id, links.userId))
        .where(and(eq(users.userSlug, parsed.userSlug), eq(links.linkSlug, parsed.linkSlug), eq(links.deleted, false)))
        .limit(1)
    : [];
  if (!row) throw notFound(`No live link at ${address}`);
  return row;
}
