// The report API's input, as zod: POST /api/reports (and the inspect page's form, which posts the same).
import { z } from "zod";

export const REPORT_REASONS = ["phishing", "malware", "spam", "impersonation", "other"] as const;

export const ReportInputSchema = z
  .object({
    address: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .describe(
        "The short address reported: a short URL (a custom domain's https://{domain}/{link} too), /go/{user}/{link} or {user}/{link}",
      ),
    reason: z.enum(REPORT_REASONS),
    details: z.string().max(2000).optional().default(""),
  })
  .meta({ id: "ReportInput" });

export const ReportSchema = z
  .object({
    id: z.number().int(),
    address: z.string().describe("The reported link's short address, {user}/{link}"),
    message: z.string(),
  })
  .meta({ id: "Report" });
export type ReportJson = z.infer<typeof ReportSchema>;
