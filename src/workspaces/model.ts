// The roles a workspace member can hold (docs/decisions/0063); what each may do is permissions.ts's.

export const ROLES = ["owner", "admin", "member", "viewer", "billing"] as const;
export type Role = (typeof ROLES)[number];

export const WORKSPACE_NOT_FOUND = "Workspace not found";
