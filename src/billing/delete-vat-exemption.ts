// DELETE /api/vat: the user's VAT exemption forgotten.
import { eq } from "drizzle-orm";
import { tablesOf, type User } from "../db/tables.ts";
import type { BillingDeps } from "./deps.ts";

export async function deleteVatExemption(deps: BillingDeps, user: User): Promise<void> {
  const { users } = tablesOf(deps.database.db);
  await deps.database.db
    .update(users)
    .set({ vatCountryCode: null, vatNumber: null, vatCompanyName: null, updatedAt: new Date(deps.clock.now()) })
    .where(eq(users.id, user.id));
}
