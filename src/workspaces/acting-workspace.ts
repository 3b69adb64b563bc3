// Which workspace a request acts in (docs/decisions/0063), read by src/auth/plugin.ts once per signed-in request.
import type { Db } from "../db/ports.ts";
import type { User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { INT32_ID_MAX } from "../http/validate.ts";
import { type Membership, membershipById, membershipBySlug, personalMembership } from "./membership.ts";
import { WORKSPACE_NOT_FOUND } from "./model.ts";

/** What a request names: the workspace of an /api/workspaces/{id}/… path, else `?workspace={slug}`, else none. */
export type NamedWorkspace = { id: number } | { slug: string } | null;

const WORKSPACE_PATH = /^\/api\/workspaces\/(\d+)(?:\/|$)/;

export function namedWorkspace(url: URL): NamedWorkspace {
  const id = WORKSPACE_PATH.exec(url.pathname)?.[1];
  if (id !== undefined) return { id: Number(id) };
  const slug = url.searchParams.get("workspace");
  return slug === null ? null : { slug };
}

/**
 * A token acts in its own workspace; a token of the user's personal workspace acts as the user did before
 * workspaces, so it may name any workspace they belong to. A session acts in the one the request names, else the
 * remembered one (the cookie), else the personal one. Naming one the user is not a member of is a 404 (a stale cookie
 * falls back to the personal workspace). Undefined: the token's workspace is no longer theirs.
 */
export async function actingMembership(
  db: Db,
  user: User,
  named: NamedWorkspace,
  remembered: string | undefined,
  tokenWorkspaceId: number | null,
): Promise<Membership | undefined> {
  const find = async (which: Exclude<NamedWorkspace, null>) => {
    // No slug holds a NUL byte, and PostgreSQL refuses one in a query: such a name is simply not found.
    if ("slug" in which && which.slug.includes("\u0000")) throw notFound(WORKSPACE_NOT_FOUND);
    // Nor is any id past the 32-bit ids the database holds (the route's schema says so too: id-params.ts).
    if ("id" in which && which.id > INT32_ID_MAX) throw notFound(WORKSPACE_NOT_FOUND);
    const found =
      "id" in which ? await membershipById(db, user.id, which.id) : await membershipBySlug(db, user.id, which.slug);
    if (!found) throw notFound(WORKSPACE_NOT_FOUND);
    return found;
  };
  if (tokenWorkspaceId !== null) {
    const own = await membershipById(db, user.id, tokenWorkspaceId);
    if (named === null) return own;
    if ("id" in named ? named.id === tokenWorkspaceId : named.slug === own?.workspace.slug) return own;
    if (own?.workspace.personalUserId !== user.id) throw notFound(WORKSPACE_NOT_FOUND);
    return find(named);
  }
  if (named !== null) return find(named);
  const current = remembered ? await membershipBySlug(db, user.id, remembered) : undefined;
  return current ?? personalMembership(db, user.id);
}
