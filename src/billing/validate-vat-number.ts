// POST /api/vat/validate: a VAT number checked with VIES; a valid number is kept for checkout as the acting
// workspace's when the caller may change its bill (billing.write, and a token's scopes allowing it).
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { Workspace } from "../workspaces/acting.ts";
import type { BillingDeps } from "./deps.ts";
import type { VatCheck, VatRequest } from "./vat.ts";

/** POST /api/vat/validate: the answer; a valid number is kept as `keptFor`'s exemption (null: kept nowhere). */
export async function validateVatNumber(deps: BillingDeps, keptFor: Workspace | null, input: VatRequest) {
  const check = await deps.checkVat(input);
  if (check.isValid && keptFor) await storeExemption(deps, keptFor, check);
  return {
    isValid: check.isValid,
    companyName: check.companyName,
    countryCode: check.countryCode,
    vatNumber: check.vatNumber,
  };
}

/** Keeps a checked number as the workspace's exemption (here, and when a checkout names another: subscribe.ts). */
export async function storeExemption(deps: BillingDeps, workspace: Workspace, check: VatCheck): Promise<Workspace> {
  const { workspaces } = tablesOf(deps.database.db);
  const [updated] = await deps.database.db
    .update(workspaces)
    .set({ vatCountryCode: check.countryCode, vatNumber: check.vatNumber, vatCompanyName: check.companyName })
    .where(eq(workspaces.id, workspace.id))
    .returning();
  return updated!;
}
