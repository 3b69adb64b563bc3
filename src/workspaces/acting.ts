// The acting context every guarded route receives (docs/decisions/0063), resolved once per request by
// src/auth/plugin.ts: who acts, in which workspace, as what.
import type { Tables, User } from "../db/tables.ts";
import type { Role } from "./model.ts";

export type Workspace = Tables["workspaces"]["$inferSelect"];

export type Acting = { user: User; workspace: Workspace; role: Role };
