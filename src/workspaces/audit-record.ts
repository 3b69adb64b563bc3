// Records one audit row per successful write in a workspace (docs/decisions/0068). Called by the route guard
// (src/auth/guards.ts) after the handler of every guarded non-GET route, so a new write route cannot
// forget it; the action is named after the route's OpenAPI operation id (`createLink` → `link.create`).
import { tablesOf } from "../db/tables.ts";
import type { Db } from "../db/ports.ts";
import type { Acting } from "./acting.ts";

/** Operation ids whose words do not read as verb + noun, or that have a name the log uses on purpose. */
const NAMED: Record<string, string> = {
  subscribe: "subscription.create",
  changeMemberRole: "member.role",
  renameWorkspace: "workspace.update",
  // The same acts as createToken and revokeToken, at the address that names the workspace.
  createWorkspaceToken: "token.create",
  revokeWorkspaceToken: "token.revoke",
};

/** One verb for one kind of change, whatever the route calls it (`addDomain` → `domain.create`). */
const VERBS: Record<string, string> = { add: "create", remove: "delete", set: "update" };

/**
 * Guarded non-GET routes that are no write of the acting workspace: reads sent by POST (lint, metadata), the
 * account's own acts (signing out, consent, accepting an invite to another workspace, creating one), and deleting a
 * workspace, whose log goes with it (its rows cascade).
 */
const UNLOGGED = new Set([
  "lintLink",
  "pageMetadata",
  "signOutConfirmed",
  "recordConsent",
  "acceptInvite",
  "createWorkspace",
  "deleteWorkspace",
  "deleteAccount",
]);

/** `createLinkVersion` → `link-version.create`: the first word is the verb, the rest the kind of thing acted on. */
export function auditAction(operationId: string): string {
  const named = NAMED[operationId];
  if (named) return named;
  const [verb, ...noun] = operationId.split(/(?=[A-Z])/);
  return `${noun.map((word) => word.toLowerCase()).join("-")}.${VERBS[verb!] ?? verb}`;
}

/** What a write acted on: the id (or slug) of what it answers with, else the route's last path parameter. */
function targetId(params: Record<string, string> | undefined, answer: unknown): string | null {
  if (typeof answer === "object" && answer !== null) {
    const made = "id" in answer ? answer.id : "slug" in answer ? answer.slug : null;
    if (typeof made === "number" || typeof made === "string") return String(made);
  }
  return Object.values(params ?? {}).at(-1) ?? null;
}

/** The names of the fields a change sent, never their values. */
const fieldNames = (body: unknown): string | null =>
  typeof body === "object" && body !== null && !Array.isArray(body) && !(body instanceof Blob)
    ? Object.keys(body).sort().join(",").slice(0, 500) || null
    : null;

export type AuditedWrite = {
  acting: Acting;
  tokenId: number | null;
  operationId: string;
  params: Record<string, string> | undefined;
  body: unknown;
  answer: unknown;
  at: number;
};

export async function recordWrite(db: Db, write: AuditedWrite): Promise<void> {
  if (UNLOGGED.has(write.operationId)) return;
  const { auditEvents } = tablesOf(db);
  const action = auditAction(write.operationId);
  await db.insert(auditEvents).values({
    workspaceId: write.acting.workspace.id,
    userId: write.acting.user.id,
    tokenId: write.tokenId,
    action,
    targetKind: action.slice(0, action.lastIndexOf(".")),
    targetId: targetId(write.params, write.answer),
    fields: fieldNames(write.body),
    createdAt: new Date(write.at),
  });
}
