// What the workspace operations (create.ts, rename.ts, delete.ts) are given. The removal of a workspace's data lives
// above (src/account/workspace-removal.ts, shared with the account's deletion) and is handed in by src/services.ts.
import type { Database } from "../db/ports.ts";
import type { Workspace } from "./acting.ts";

export type WorkspaceDeps = {
  database: Database;
  removeWorkspace: (workspace: Workspace) => Promise<void>;
};
