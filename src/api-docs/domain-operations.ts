// The custom domains' /api operations (src/domains/), described from their zod schemas; listed in operations.ts.
import { z } from "zod";
import { AddDomainInput, DomainListSchema, DomainSchema, UpdateDomainInput } from "../domains/wire.ts";
import type { ApiOperation } from "./operation-types.ts";

const DomainId = z.object({ id: z.coerce.number().int().min(1).describe("The domain's id") });

export const DOMAIN_OPERATIONS: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/domains/",
    operationId: "listDomains",
    tag: "Domains",
    summary: "Your custom domains",
    access: "user",
    responses: { 200: { description: "The domains, by hostname", schema: DomainListSchema } },
  },
  {
    method: "POST",
    path: "/api/domains/",
    operationId: "addDomain",
    tag: "Domains",
    summary: "Add a custom domain",
    description:
      "Normalised (lower-case, trailing dot and port dropped, IDN as punycode). Refused: IP addresses, this instance's own names (PUBLIC_URL's host, ALIAS_HOSTS, the CNAME target) and names under them (400), a name you already added or one verified for another account (409; another account's unverified claim blocks nothing), more than the plan includes (403: pro 1, enterprise 10). Pending until the records it answers are published and checked.",
    access: "user",
    body: { schema: AddDomainInput, example: { hostname: "links.acme.com" } },
    errors: [400, 403, 409],
    responses: { 201: { description: "The domain, pending, with the records to publish", schema: DomainSchema } },
  },
  {
    method: "GET",
    path: "/api/domains/:id",
    operationId: "getDomain",
    tag: "Domains",
    summary: "One of your domains",
    access: "user",
    params: DomainId,
    errors: [404],
    responses: { 200: { description: "The domain", schema: DomainSchema } },
  },
  {
    method: "POST",
    path: "/api/domains/:id/verify",
    operationId: "verifyDomain",
    tag: "Domains",
    summary: "Check the domain's DNS records now",
    description:
      "TXT _linkprev.{hostname} must hold the token, and the host must reach this instance (CNAME to DOMAIN_CNAME_TARGET, or A/AAAA to DOMAIN_ADDRESSES). A transient DNS failure changes no status; records gone make a verified domain failing (still served), invalid after 7 days. Proven first, it lets go of other accounts' unverified claims of the name; while another account serves it, it stays unverified. At most 5 checks a minute per domain (429).",
    access: "user",
    params: DomainId,
    errors: [403, 404, 429],
    responses: {
      200: { description: "The domain with its new status and, unless verified, the reason", schema: DomainSchema },
    },
  },
  {
    method: "PATCH",
    path: "/api/domains/:id",
    operationId: "updateDomain",
    tag: "Domains",
    summary: "Where / and unknown addresses on the domain go",
    access: "user",
    params: DomainId,
    body: { schema: UpdateDomainInput, example: { rootUrl: "https://acme.com/", notFoundUrl: null } },
    errors: [400, 403, 404, 422],
    responses: { 200: { description: "The domain", schema: DomainSchema } },
  },
  {
    method: "DELETE",
    path: "/api/domains/:id",
    operationId: "removeDomain",
    tag: "Domains",
    summary: "Remove a custom domain",
    description: "Refused (409) while live links use it: move them to another address or delete them first.",
    access: "user",
    params: DomainId,
    errors: [403, 404, 409],
    responses: { 204: { description: "Done; no body" } },
  },
];
