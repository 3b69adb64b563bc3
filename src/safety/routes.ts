// POST /api/reports: a report of a link, from the inspect page's form or the API; no sign-in needed.
import { Elysia } from "elysia";
import { parseInput } from "../http/validate.ts";
import { requestFacts } from "../observability/request-facts.ts";
import type { Services } from "../services.ts";
import { createReport, REPORTS_PER_HOUR } from "./reports.ts";
import { ReportInputSchema } from "./wire.ts";

export function safetyRoutes(services: Services) {
  const limiter = services.reportLimiter;
  return new Elysia().use(requestFacts()).post("/api/reports", async ({ request, body, set, redirect, origin }) => {
    const ip = origin.clientAddress;
    await limiter.hit(
      ip,
      "report:",
      `At most ${REPORTS_PER_HOUR} reports an hour can be sent from one address. Please try again later.`,
    );
    const input = parseInput(ReportInputSchema, body);
    const { report, inspectPage } = await createReport(services.safety, input, ip);
    // The inspect page's form: back to the page, which thanks the reporter.
    if ((request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
      return redirect(inspectPage, 303);
    set.status = 201;
    return report;
  });
}
