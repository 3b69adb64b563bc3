// The `{id}` of /api/workspaces/{id}/… routes, in every folder that declares one (workspaces, members, audit, tokens,
// export).
import { z } from "zod";
import { INT32_ID_MAX, pathId } from "../http/validate.ts";
import { WORKSPACE_NOT_FOUND } from "./model.ts";

/** Unknown, malformed or not the caller's: the workspace's 404. */
export const workspaceId = pathId(WORKSPACE_NOT_FOUND, INT32_ID_MAX).describe("The workspace's id");
export const WorkspaceIdParams = z.object({ id: workspaceId });
