// /api/workspaces: the caller's workspaces (docs/decisions/0063). The workspace of an /api/workspaces/{id}/… path
// is the request's acting workspace (acting-workspace.ts), so the guard's permission is the caller's role there.
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards } from "../auth/guards.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { parseInput } from "../http/validate.ts";
import { createWorkspace } from "./create.ts";
import { deleteWorkspace } from "./delete.ts";
import type { WorkspaceDeps } from "./deps.ts";
import { listWorkspaces, presentWorkspace } from "./list.ts";
import { renameWorkspace } from "./rename.ts";
import { CreateWorkspaceInput, DeleteWorkspaceInput, UpdateWorkspaceInput, WorkspaceSchema } from "./wire.ts";
import { WorkspaceIdParams } from "./id-params.ts";

/** What /api/workspaces needs. */
export type WorkspaceRouteDeps = { workspaces: WorkspaceDeps; session: SessionDeps };

export function workspaceRoutes({ workspaces: deps, session }: WorkspaceRouteDeps) {
  return new Elysia({ prefix: "/api/workspaces" })
    .use(routeGuards(session))
    .get("/", ({ user }) => listWorkspaces(deps.database.db, user.id), {
      user: true,
      response: { 200: z.array(WorkspaceSchema) },
      doc: {
        id: "listWorkspaces",
        tag: "Workspaces",
        summary: "The workspaces you belong to, your personal one first, with your role in each",
        answers: { 200: "The workspaces" },
      },
    })
    .post(
      "/",
      async ({ user, body, set }) => {
        const created = await createWorkspace(deps, user, body);
        set.status = 201;
        return created;
      },
      {
        user: true,
        body: CreateWorkspaceInput,
        response: { 201: WorkspaceSchema },
        doc: {
          id: "createWorkspace",
          tag: "Workspaces",
          summary: "Create a team workspace; you are its owner",
          description:
            "Its slug is the first part of its short URLs (/go/{slug}/{link}): free among user slugs, workspace slugs and the retired addresses of deleted ones, and never changed.",
          body: { example: { slug: "acme", name: "Acme marketing" } },
          errors: [400, 409],
          answers: { 201: "The workspace" },
        },
      },
    )
    .get("/:id", ({ workspace, role }) => presentWorkspace({ workspace, role }), {
      user: true,
      params: WorkspaceIdParams,
      response: { 200: WorkspaceSchema },
      doc: {
        id: "getWorkspace",
        tag: "Workspaces",
        summary: "One of your workspaces",
        errors: [404],
        answers: { 200: "The workspace" },
      },
    })
    .patch("/:id", ({ acting, body }) => renameWorkspace(deps, acting, body.name), {
      permission: "workspace.write",
      params: WorkspaceIdParams,
      body: UpdateWorkspaceInput,
      response: { 200: WorkspaceSchema },
      doc: {
        id: "renameWorkspace",
        tag: "Workspaces",
        summary: "Rename a workspace (its slug never changes)",
        body: { example: { name: "Acme growth" } },
        errors: [400, 403, 404],
        answers: { 200: "The workspace" },
      },
    })
    .delete(
      "/:id",
      async ({ workspace, body, query, set }) => {
        // The slug may come in the body or, for clients that send no body with DELETE, in the query.
        const typed = query.confirmSlug ?? parseInput(DeleteWorkspaceInput, body ?? {}).confirmSlug ?? "";
        await deleteWorkspace(deps, workspace, typed);
        set.status = 204;
      },
      {
        permission: "workspace.delete",
        params: WorkspaceIdParams,
        query: DeleteWorkspaceInput,
        doc: {
          id: "deleteWorkspace",
          tag: "Workspaces",
          summary: "Delete a team workspace and everything it owns; its short URLs answer 410 for good",
          description:
            'Type its slug to confirm (`{"confirmSlug"}` in the body, or `?confirmSlug=`). Cancels its Stripe subscription at once, releases its custom domains, revokes its tokens, removes its webhooks, links, stats and invites. A personal workspace goes only with its account (DELETE /api/account). Safe to retry.',
          body: { readByHandler: DeleteWorkspaceInput, example: { confirmSlug: "acme" } },
          errors: [400, 403, 404, 409, 502],
          answers: { 204: "Deleted" },
        },
      },
    );
}
