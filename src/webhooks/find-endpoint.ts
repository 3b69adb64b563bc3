// The user's endpoint by id, or 404: every per-endpoint operation starts here.
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { ENDPOINT_NOT_FOUND } from "./deps.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function findEndpoint(db: Db, workspace: Workspace, id: number) {
  const { webhookEndpoints } = tablesOf(db);
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.workspaceId, workspace.id)));
  if (!row) throw notFound(ENDPOINT_NOT_FOUND);
  return row;
}
