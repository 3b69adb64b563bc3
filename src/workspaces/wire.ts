// What the workspaces API takes and answers (docs/decisions/0063), as zod schemas: the OpenAPI document and the SDK
// are generated from them. Pure zod.
import { z } from "zod";
import { ROLES } from "./model.ts";

export const WORKSPACE_SLUG_MAX = 20;

export const WorkspaceSchema = z.object({
  id: z.number().int(),
  slug: z.string().describe("The first part of the workspace's short URLs: /go/{slug}/{link}"),
  name: z.string(),
  role: z.enum(ROLES).describe("The caller's role in the workspace"),
});
export type WorkspaceJson = z.infer<typeof WorkspaceSchema>;

const WorkspaceName = z.string().trim().min(1, "Give the workspace a name").max(100, "At most 100 characters");

export const CreateWorkspaceInput = z.object({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9_-]+$/, "Only letters, digits, - and _")
    .max(WORKSPACE_SLUG_MAX, `At most ${WORKSPACE_SLUG_MAX} characters`)
    .describe("The first part of its short URLs, never given to anyone else once taken"),
  name: WorkspaceName,
});
export type CreateWorkspaceRequest = z.infer<typeof CreateWorkspaceInput>;

export const UpdateWorkspaceInput = z.object({ name: WorkspaceName });

export const DeleteWorkspaceInput = z.object({
  confirmSlug: z.string().max(100).optional().describe("The workspace's slug, typed to confirm its deletion"),
});
