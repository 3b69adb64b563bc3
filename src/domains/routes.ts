// /api/domains: a user's custom domains, for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import { z } from "zod";
import type { RateLimiter } from "../http/rate-limit.ts";
import { pathId } from "../http/validate.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { createDomain } from "./create.ts";
import type { DomainDeps } from "./deps.ts";
import { DOMAIN_NOT_FOUND } from "./model.ts";
import { findDomain, getDomain, listDomains } from "./queries.ts";
import { deleteDomain } from "./delete.ts";
import { updateDomain } from "./update.ts";
import { verifyDomain } from "./verify.ts";
import { AddDomainInput, DomainListSchema, DomainSchema, UpdateDomainInput } from "./wire.ts";
import { presentDomain } from "./present.ts";

const DomainIdParams = z.object({ id: pathId(DOMAIN_NOT_FOUND).describe("The domain's id") });

/** What /api/domains needs. */
/** `checkLimiter`: DNS checks per domain and minute (CHECKS_PER_MINUTE, src/domains/deps.ts). */
export type DomainRouteDeps = { domains: DomainDeps; checkLimiter: RateLimiter; session: SessionDeps };

export function domainRoutes({ domains: deps, checkLimiter, session }: DomainRouteDeps) {
  return (
    new Elysia({ prefix: "/api/domains" })
      .use(routeGuards(session))
      .get("/", async ({ workspace }) => ({ domains: await listDomains(deps, workspace) }), {
        permission: "settings.read",
        response: { 200: DomainListSchema },
        doc: {
          id: "listDomains",
          tag: "Domains",
          summary: "Your custom domains",
          answers: { 200: "The domains, by hostname" },
        },
      })
      .post(
        "/",
        async ({ acting, body, set }) => {
          const domain = await createDomain(deps, acting, body);
          set.status = 201;
          return domain;
        },
        {
          permission: "domains.write",
          body: AddDomainInput,
          response: { 201: DomainSchema },
          doc: {
            id: "addDomain",
            tag: "Domains",
            summary: "Add a custom domain",
            description:
              "Normalised (lower-case, trailing dot and port dropped, IDN as punycode). Refused: IP addresses, this instance's own names (PUBLIC_URL's host, ALIAS_HOSTS, the CNAME target) and names under them (400), a name you already added or one verified for another account (409; another account's unverified claim blocks nothing), more than the plan includes (403: pro 1, enterprise 10). Pending until the records it answers are published and checked.",
            body: { example: { hostname: "links.acme.com" } },
            errors: [400, 403, 409],
            answers: { 201: "The domain, pending, with the records to publish" },
          },
        },
      )
      .get("/:id", ({ workspace, params }) => getDomain(deps, workspace, params.id), {
        permission: "settings.read",
        params: DomainIdParams,
        response: { 200: DomainSchema },
        doc: {
          id: "getDomain",
          tag: "Domains",
          summary: "One of your domains",
          errors: [404],
          answers: { 200: "The domain" },
        },
      })
      // Check now: the new status and, when not verified, the reason.
      .post(
        "/:id/verify",
        async ({ workspace, params }) => {
          const domain = await findDomain(deps.database.db, workspace, params.id);
          await checkLimiter.hit(`domain-check:${domain.id}`);
          const checked = await verifyDomain(deps, domain);
          const { links } = await getDomain(deps, workspace, checked.id);
          return presentDomain(checked, deps.routing, links);
        },
        {
          permission: "domains.write",
          params: DomainIdParams,
          response: { 200: DomainSchema },
          doc: {
            id: "verifyDomain",
            tag: "Domains",
            summary: "Check the domain's DNS records now",
            description:
              "TXT _linkprev.{hostname} must hold the token, and the host must reach this instance (CNAME to DOMAIN_CNAME_TARGET, or A/AAAA to DOMAIN_ADDRESSES). A transient DNS failure changes no status; records gone make a verified domain failing (still served), invalid after 7 days. Proven first, it lets go of other accounts' unverified claims of the name; while another account serves it, it stays unverified. At most 5 checks a minute per domain (429).",
            errors: [403, 404, 429],
            answers: { 200: "The domain with its new status and, unless verified, the reason" },
          },
        },
      )
      .patch("/:id", ({ workspace, params, body }) => updateDomain(deps, workspace, params.id, body), {
        permission: "domains.write",
        params: DomainIdParams,
        body: UpdateDomainInput,
        response: { 200: DomainSchema },
        doc: {
          id: "updateDomain",
          tag: "Domains",
          summary: "Where / and unknown addresses on the domain go, and its app-link documents",
          description:
            "Each field is optional; null clears it. appleAppSiteAssociation and assetLinks are JSON text, checked against Apple's and Android's shapes (400 naming the place inside), at most 128 KB each, and served byte-exact as application/json at /.well-known/apple-app-site-association and /.well-known/assetlinks.json on the domain.",
          body: { example: { rootUrl: "https://acme.com/", notFoundUrl: null } },
          errors: [400, 403, 404, 422],
          answers: { 200: "The domain" },
        },
      })
      .delete(
        "/:id",
        async ({ workspace, params, set }) => {
          await deleteDomain(deps, workspace, params.id);
          set.status = 204;
          return null;
        },
        {
          permission: "domains.write",
          params: DomainIdParams,
          doc: {
            id: "removeDomain",
            tag: "Domains",
            summary: "Remove a custom domain",
            description: "Refused (409) while live links use it: move them to another address or delete them first.",
            errors: [403, 404, 409],
            answers: { 204: "Done; no body" },
          },
        },
      )
  );
}
