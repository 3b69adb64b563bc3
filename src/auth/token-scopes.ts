// What an API token may do beyond its creator's role (docs/decisions/0065): scopes. A token acts as its creator in
// its workspace, so their role bounds it; its scopes narrow it further. A token made before scopes (null) keeps
// every power its creator's role gives, as it had.
import type { Action } from "../workspaces/permissions.ts";
import { type Scope, SCOPES } from "./model.ts";

export type { Scope };

/** The scope each guarded action needs; workspace:admin covers every one (tokens, members, billing, deletion). */
const NEEDED: Record<Action, Scope> = {
  "links.read": "links:read",
  "analytics.read": "analytics:read",
  "settings.read": "links:read",
  "links.write": "links:write",
  "domains.write": "domains:write",
  "webhooks.write": "webhooks:write",
  "tokens.write": "workspace:admin",
  "members.write": "workspace:admin",
  "billing.write": "workspace:admin",
  "workspace.write": "workspace:admin",
  "workspace.export": "workspace:admin",
  "workspace.delete": "workspace:admin",
  "audit.read": "workspace:admin",
};

/** Stored as one space-separated text (OAuth's way), in SCOPES' order; null stays null. */
export const storedScopes = (scopes: readonly Scope[] | null): string | null =>
  scopes === null ? null : SCOPES.filter((scope) => scopes.includes(scope)).join(" ");

export const parsedScopes = (stored: string | null): Scope[] | null =>
  stored === null ? null : SCOPES.filter((scope) => stored.split(" ").includes(scope));

/** Whether a token with `scopes` may do `action` (its creator's role permitting); null: a token from before scopes. */
export function tokenMay(scopes: readonly Scope[] | null, action: Action): boolean {
  if (scopes === null || scopes.includes("workspace:admin")) return true;
  const needed = NEEDED[action];
  // Writing links includes reading them.
  return scopes.includes(needed) || (needed === "links:read" && scopes.includes("links:write"));
}

export const missingScope = (action: Action) =>
  `This API token lacks the ${NEEDED[action]} scope for this. Make a token with it (POST /api/tokens with "scopes").`;
