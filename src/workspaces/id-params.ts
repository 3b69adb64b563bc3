// The `{id}` of /api/workspaces/{id}/… routes, in every folder that declares one (workspaces, audit, tokens, export).
import { z } from "zod";
import { pathId } from "../http/validate.ts";
import { WORKSPACE_NOT_FOUND } from "./model.ts";

/** Unknown, malformed or not the caller's: the workspace's 404. */
export const workspaceId = pathId(WORKSPACE_NOT_FOUND).describe("The workspace's id");
export const WorkspaceIdParams = z.object({ id: workspaceId });
