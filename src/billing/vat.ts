// EU VAT numbers checked against VIES (the EU's REST API). Only businesses in another member state than
// ours can be exempt (reverse charge); a VIES outage is an error, never a "valid".
import { z } from "zod";
import { badRequest, unavailable } from "../http/errors.ts";
import type { Logger } from "../observability/log.ts";

export const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
] as const;

export const VatInput = z.object(
  {
    countryCode: z.enum(EU_COUNTRIES, "Choose one of the 27 EU member states"),
    vatNumber: z
      .string("VAT number is required")
      .transform((value) => value.replace(/[^A-Za-z0-9]/g, "").toUpperCase())
      .pipe(z.string().min(1, "VAT number is required").max(20, "VAT number is too long")),
  },
  "Please provide both country and VAT number",
);

export type VatRequest = z.output<typeof VatInput>;

export type VatCheck = { countryCode: string; vatNumber: string; isValid: boolean; companyName: string | null };

/** VIES (and VAT ids) write Greece as EL. */
export const viesCountry = (countryCode: string) => (countryCode === "GR" ? "EL" : countryCode);

const ViesAnswer = z.object({ valid: z.boolean(), name: z.string().nullish() });

export async function validateVat(
  settings: { viesUrl: string; viesTimeoutMs: number; businessCountry: string },
  log: Logger,
  { countryCode, vatNumber }: VatRequest,
): Promise<VatCheck> {
  if (countryCode === settings.businessCountry) {
    throw badRequest(
      `VAT exemption not applicable: companies registered in the same country as us (${countryCode}) pay VAT`,
      "countryCode",
    );
  }
  const prefix = viesCountry(countryCode);
  // People often type the number with its country prefix.
  const number = vatNumber.startsWith(prefix) ? vatNumber.slice(prefix.length) : vatNumber;
  let answer: z.infer<typeof ViesAnswer>;
  try {
    const response = await fetch(`${settings.viesUrl}/check-vat-number`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ countryCode: prefix, vatNumber: number }),
      signal: AbortSignal.timeout(settings.viesTimeoutMs),
    });
    if (!response.ok) throw new Error(`VIES answered ${response.status}`);
    answer = ViesAnswer.parse(await response.json());
  } catch (error) {
    log.warn(`VIES check failed: ${error instanceof Error ? error.message : String(error)}`);
    throw unavailable("The EU VAT validation service (VIES) could not be reached. Please try again later.");
  }
  const name = answer.name?.trim();
  return { countryCode, vatNumber: number, isValid: answer.valid, companyName: name && name !== "---" ? name : null };
}
