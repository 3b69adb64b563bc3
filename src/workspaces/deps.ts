// What the workspace operations (create.ts, rename.ts, delete.ts) are given.
import type { ChangeBus, Database } from "../db/ports.ts";

export type WorkspaceDeps = { database: Database; changes: ChangeBus };
