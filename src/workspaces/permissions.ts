// The one table of who may do what in a workspace (docs/decisions/0063): the route guard (src/auth/guards.ts) asks it,
// and nothing else decides. `links.read` covers links, `analytics.read` their stats, views, fetches and exports,
// `settings.read` the lists of domains, webhooks and tokens (never a secret: those are shown once, to whoever may
// write them). `audit.read`: the audit log (audit-routes.ts).
import type { Role } from "./model.ts";

export const ACTIONS = [
  "links.read",
  "analytics.read",
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
  "audit.read",
] as const;
export type Action = (typeof ACTIONS)[number];

const VIEWER: readonly Action[] = ["links.read", "analytics.read", "settings.read"];
const MEMBER: readonly Action[] = [...VIEWER, "links.write"];
const ADMIN: readonly Action[] = [
  ...MEMBER,
  "domains.write",
  "tokens.write",
  "webhooks.write",
  "members.write",
  "workspace.write",
  "audit.read",
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
