// What an API token may be given (docs/decisions/0065), shared with the CLI: the scopes. What each allows is
// src/auth/token-scopes.ts's.

export const SCOPES = [
  "links:read",
  "links:write",
  "analytics:read",
  "domains:write",
  "webhooks:write",
  "workspace:admin",
] as const;
export type Scope = (typeof SCOPES)[number];
