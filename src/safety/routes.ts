// POST /api/reports: a report of a link, from the inspect page's form or the API; no sign-in needed.
import { Elysia } from "elysia";
import { RateLimiter } from "../http/rate-limit.ts";
import type { Services } from "../services.ts";
import { createReport } from "./reports.ts";
import { ReportInputSchema } from "./wire.ts";

/** Reports per client per hour (an IPv6 client by its /64): enough for a person, not for a flood. */
export const REPORTS_PER_HOUR = 5;

export function safetyRoutes(services: Services) {
  const limiter = new RateLimiter(services.hits.countHit, REPORTS_PER_HOUR, services.clock, 3_600_000);
  return new Elysia().post(
    "/api/reports",
    async ({ request, body, set, redirect }) => {
      const ip = services.clientAddress(request);
      await limiter.hit(
        ip,
        "report:",
        `At most ${REPORTS_PER_HOUR} reports an hour can be sent from one address. Please try again later.`,
      );
      const { report, inspectPage } = await createReport(services.safety, body, ip);
      // The inspect page's form: back to the page, which thanks the reporter.
      if ((request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
        return redirect(inspectPage, 303);
      set.status = 201;
      return report;
    },
    { body: ReportInputSchema },
  );
}
