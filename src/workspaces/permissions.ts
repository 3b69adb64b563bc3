// The one table of who may do what in a workspace (docs/decisions/0063): the route guard (src/auth/guards.ts) asks it,
// and nothing else decides. `links.read` covers links and their stats, `settings.read` the lists of domains, webhooks and tokens
// (never a secret: those are shown once, to whoever may write them).
import type { Role } from "./model.ts";

export const ACTIONS = [
  "links.read",
  "settings.read",
  "links.write",
  "domains.write",
  "tokens.write",
  "webhooks.write",
  "members.write",
  "billing.write",
  "workspace.write",
  "workspace.export",
  "workspace.delete",
] as const;
export type Action = (typeof ACTIONS)[number];

const VIEWER: readonly Action[] = ["links.read", "settings.read"];
const MEMBER: readonly Action[] = [...VIEWER, "links.write"];
const ADMIN: readonly Action[] = [
  ...MEMBER,
  "domains.write",
  "tokens.write",
  "webhooks.write",
  "members.write",
  "workspace.write",
  "workspace.export",
];

const PERMISSIONS: Record<Role, ReadonlySet<Action>> = {
  owner: new Set([...ADMIN, "billing.write", "workspace.delete"]),
  admin: new Set(ADMIN),
  member: new Set(MEMBER),
  viewer: new Set(VIEWER),
  billing: new Set(["billing.write"]),
};

export const may = (role: Role, action: Action): boolean => PERMISSIONS[role].has(action);
