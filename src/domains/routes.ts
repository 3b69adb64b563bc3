// /api/domains: a user's custom domains, for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import { z } from "zod";
import { RateLimiter } from "../http/rate-limit.ts";
import { pathId } from "../http/validate.ts";
import type { Services } from "../services.ts";
import { addDomain } from "./add.ts";
import { DOMAIN_NOT_FOUND } from "./model.ts";
import { findDomain, getDomain, listDomains } from "./queries.ts";
import { removeDomain } from "./remove.ts";
import { updateDomain } from "./update.ts";
import { verifyDomain } from "./verify.ts";
import { AddDomainInput, UpdateDomainInput } from "./wire.ts";
import { presentDomain } from "./present.ts";

const DomainIdParams = z.object({ id: pathId(DOMAIN_NOT_FOUND).describe("The domain's id") });

/** DNS checks per domain and minute ("Check now", the API, the CLI): each asks the resolver several questions. */
const CHECKS_PER_MINUTE = 5;

export function domainRoutes(services: Services) {
  const deps = services.domains;
  const checkLimiter = new RateLimiter(services.hits.countHit, CHECKS_PER_MINUTE, services.clock);
  return (
    new Elysia({ prefix: "/api/domains" })
      .use(routeGuards(services))
      .get("/", async ({ user }) => ({ domains: await listDomains(deps, user) }), { user: true })
      .post(
        "/",
        async ({ user, body, set }) => {
          const domain = await addDomain(deps, user, body);
          set.status = 201;
          return domain;
        },
        { permission: "domains.write", body: AddDomainInput },
      )
      .get("/:id", ({ user, params }) => getDomain(deps, user, params.id), { user: true, params: DomainIdParams })
      // Check now: the new status and, when not verified, the reason.
      .post(
        "/:id/verify",
        async ({ user, params }) => {
          const domain = await findDomain(deps.db, user, params.id);
          await checkLimiter.hit(`domain-check:${domain.id}`);
          const checked = await verifyDomain(deps, domain);
          const { links } = await getDomain(deps, user, checked.id);
          return presentDomain(checked, deps.routing, links);
        },
        { permission: "domains.write", params: DomainIdParams },
      )
      .patch("/:id", ({ user, params, body }) => updateDomain(deps, user, params.id, body), {
        permission: "domains.write",
        params: DomainIdParams,
        body: UpdateDomainInput,
      })
      .delete(
        "/:id",
        async ({ user, params, set }) => {
          await removeDomain(deps, user, params.id);
          set.status = 204;
          return null;
        },
        { permission: "domains.write", params: DomainIdParams },
      )
  );
}
