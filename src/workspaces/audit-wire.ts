// The audit log on the wire (GET /api/workspaces/{id}/audit, docs/decisions/0068).
import { z } from "zod";
import { idPageQuery } from "../http/wire.ts";

export const AuditEventSchema = z.object({
  at: z.string().describe("When, ISO 8601"),
  actor: z.object({
    userId: z.number().int().nullable().describe("Who acted; null once their account is deleted"),
    email: z.string().nullable(),
    tokenId: z.number().int().nullable().describe("The API token that acted; null for the web app"),
  }),
  action: z.string().describe("What was done, e.g. link.create, member.role, webhook.update"),
  target: z.object({
    kind: z.string().describe("What it was done to, e.g. link, domain, member"),
    id: z.string().nullable().describe("Its id (or slug)"),
  }),
  fields: z.array(z.string()).describe("The names of the fields a change sent (never their values)"),
});

export const AuditPageSchema = z
  .object({
    items: z.array(AuditEventSchema),
    nextCursor: z.string().nullable().describe("Pass as cursor for the next, older page; null at the end"),
  })
  .meta({ id: "AuditPage" });

export const AuditQuery = idPageQuery(50);

export type AuditEventJson = z.output<typeof AuditEventSchema>;
export type AuditPageJson = z.output<typeof AuditPageSchema>;
