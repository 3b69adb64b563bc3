// What the domain API answers, as zod schemas (the OpenAPI document, the CLI and the Domains page use them).
import { z } from "zod";
import { DOMAIN_STATUSES } from "./model.ts";

const timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 date and time");

export const DomainSchema = z
  .object({
    id: z.number().int(),
    hostname: z.string().describe("Lower-case, IDN as punycode"),
    status: z
      .enum(DOMAIN_STATUSES)
      .describe(
        "pending: not yet proven; verified: served; failing: records gone, still served; invalid: failing for 7 days, not served",
      ),
    reason: z.string().nullable().describe("Why the last check did not verify it"),
    lastCheckedAt: timestamp.nullable(),
    rootUrl: z.string().nullable().describe("Where / on the domain goes (null: a small page)"),
    notFoundUrl: z.string().nullable().describe("Where an unknown address on the domain goes (null: the 404 page)"),
    verification: z.object({ txtName: z.string(), txtValue: z.string() }),
    records: z
      .array(z.object({ type: z.enum(["TXT", "CNAME", "A", "AAAA"]), name: z.string(), value: z.string() }))
      .describe("Every record to publish"),
    links: z.number().int().describe("Live links on this domain"),
    createdAt: timestamp,
  })
  .meta({ id: "Domain" });
export type DomainJson = z.infer<typeof DomainSchema>;

export const DomainListSchema = z.object({ domains: z.array(DomainSchema) }).meta({ id: "DomainList" });

export const AddDomainInput = z.object({
  hostname: z.string("hostname is required").min(1, "hostname is required").max(300),
});
const optionalUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2048)
  .nullable()
  .optional();
export const UpdateDomainInput = z.object({ rootUrl: optionalUrl, notFoundUrl: optionalUrl });
