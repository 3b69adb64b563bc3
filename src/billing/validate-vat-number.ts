// POST /api/vat/validate: a VAT number checked with VIES; a signed-in user's valid number is kept for checkout.
import { eq } from "drizzle-orm";
import { tablesOf, type User } from "../db/tables.ts";
import type { BillingDeps } from "./deps.ts";
import type { VatCheck, VatRequest } from "./vat.ts";

/** POST /api/vat/validate: the answer, and for a signed-in user a valid number is kept for checkout. */
export async function validateVatNumber(deps: BillingDeps, user: User | null, input: VatRequest) {
  const check = await deps.checkVat(input);
  if (check.isValid && user) await storeExemption(deps, user, check);
  return {
    isValid: check.isValid,
    companyName: check.companyName,
    countryCode: check.countryCode,
    vatNumber: check.vatNumber,
  };
}

/** Keeps a checked number as the user's exemption (here, and when a checkout names another: subscribe.ts). */
export async function storeExemption(deps: BillingDeps, user: User, check: VatCheck): Promise<User> {
  const { users } = tablesOf(deps.database.db);
  const [updated] = await deps.database.db
    .update(users)
    .set({
      vatCountryCode: check.countryCode,
      vatNumber: check.vatNumber,
      vatCompanyName: check.companyName,
      updatedAt: new Date(deps.clock.now()),
    })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}
