// GET /api/workspaces/{id}/audit and …/audit.csv (docs/decisions/0068): owners and admins read and export the log
// (`audit.read`). The rows are written by the route guard (src/auth/guards.ts), not here.
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import type { Db } from "../db/ports.ts";
import { attachment } from "../http/attachment.ts";
import { auditCsv, auditPage } from "./audit-list.ts";
import { AuditPageSchema, AuditQuery } from "./audit-wire.ts";
import { WorkspaceIdParams } from "./id-params.ts";

/** What the audit routes need. */
export type AuditRouteDeps = { db: Db; session: SessionDeps };

export function auditRoutes({ db, session }: AuditRouteDeps) {
  return new Elysia({ prefix: "/api/workspaces" })
    .use(routeGuards(session))
    .get("/:id/audit", ({ workspace, query }) => auditPage(db, workspace, query.limit, query.cursor), {
      permission: "audit.read",
      params: WorkspaceIdParams,
      query: AuditQuery,
      response: { 200: AuditPageSchema },
      doc: {
        id: "listAuditEvents",
        tag: "Workspaces",
        summary: "The workspace's audit log, newest first: who changed what, and when (kept 365 days)",
        description:
          "One row per successful write in the workspace: the actor (the user, and the API token when one acted), the action (e.g. `link.create`, `member.role`), its target and the names of the fields it sent — never their values, a secret or an IP address.",
        errors: [400, 404],
        answers: { 200: "One page of the log" },
      },
    })
    .get(
      "/:id/audit.csv",
      async ({ workspace }) =>
        attachment(await auditCsv(db, workspace), "text/csv; charset=utf-8", `linkprev-audit-${workspace.slug}.csv`),
      {
        permission: "audit.read",
        params: WorkspaceIdParams,
        doc: {
          id: "exportAuditCsv",
          tag: "Workspaces",
          summary: "The workspace's audit log as CSV, newest first",
          description:
            "Columns: at, user id, email, token id, action, target kind, target id, fields. Every cell quoted; a cell that starts with = + - @ is prefixed with ' (spreadsheet formulas).",
          errors: [404],
          answers: { 200: { description: "A CSV attachment", contentType: "text/csv" } },
        },
      },
    );
}
