// The workspace a /api/workspaces/{id}/… route names, and the caller's role there: the caller must be a member (else
// 404, as for a workspace that does not exist), and a token acts only in its own workspace (a personal workspace's
// token, like a session, in any of the user's: src/auth/plugin.ts).
import { missingScope, type Scope, tokenMay } from "../auth/token-scopes.ts";
import type { Db } from "../db/ports.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { membershipById } from "../workspaces/membership.ts";
import type { Acting } from "../workspaces/acting.ts";
import { WORKSPACE_NOT_FOUND } from "../workspaces/model.ts";
import { type Action, may } from "../workspaces/permissions.ts";

export type Caller = Acting & { via: "session" | "token"; scopes: Scope[] | null };

export async function actingIn(db: Db, caller: Caller, workspaceId: number, action?: Action): Promise<Acting> {
  const personalToken = caller.workspace.personalUserId === caller.user.id;
  if (caller.via === "token" && caller.workspace.id !== workspaceId && !personalToken)
    throw notFound(WORKSPACE_NOT_FOUND);
  const membership = await membershipById(db, caller.user.id, workspaceId);
  if (!membership) throw notFound(WORKSPACE_NOT_FOUND);
  if (action && !may(membership.role, action)) throw forbidden("You may not do this here.");
  if (action && !tokenMay(caller.scopes, action)) throw forbidden(missingScope(action));
  return { user: caller.user, ...membership };
}
