// POST /api/reports: a report of a link, from the inspect page's form or the API; no sign-in needed.
import { Elysia } from "elysia";
import { documented } from "../api-docs/documented.ts";
import { originOf, requestFacts } from "../observability/request-facts.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { SafetyDeps } from "./deps.ts";
import { createReport, REPORTS_PER_HOUR } from "./reports.ts";
import { ReportInputSchema, ReportSchema } from "./wire.ts";

/** What POST /api/reports needs. */
export type SafetyRouteDeps = {
  safety: SafetyDeps;
  /** Reports per client (an IPv6 client by its /64): REPORTS_PER_HOUR. */
  reportLimiter: RateLimiter;
};

export function safetyRoutes({ safety, reportLimiter: limiter }: SafetyRouteDeps) {
  return new Elysia()
    .use(requestFacts())
    .use(documented)
    .post(
      "/api/reports",
      async ({ request, body, set, redirect, origin }) => {
        const { report, inspectPage } = await createReport(safety, body, origin.clientAddress);
        // The inspect page's form: back to the page, which thanks the reporter.
        if ((request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
          return redirect(inspectPage, 303);
        set.status = 201;
        return report;
      },
      {
        // Every report counts, well-formed or not: the limit runs before the schema judges the body.
        transform: ({ request }) =>
          limiter.hit(
            originOf(request).clientAddress,
            "report:",
            `At most ${REPORTS_PER_HOUR} reports an hour can be sent from one address. Please try again later.`,
          ),
        body: ReportInputSchema,
        response: { 201: ReportSchema },
        doc: {
          id: "reportLink",
          tag: "Links",
          summary: "Report a link (phishing, malware, spam, impersonation, other)",
          description:
            "No sign-in needed; 5 reports an hour per client address. The inspect page (any short URL with + appended) posts the same as a form and is sent back to it. Your address is stored shortened, as for views.",
          body: {
            form: true,
            example: {
              address: "https://linkprev.example/go/ana/launch",
              reason: "phishing",
              details: "Asks for a bank password",
            },
          },
          errors: [400, 404, 429],
          answers: { 201: "The report, sent to the operators", 303: "A form post: back to the inspect page" },
        },
      },
    );
}
