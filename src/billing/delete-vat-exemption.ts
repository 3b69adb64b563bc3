// DELETE /api/vat: the workspace's VAT exemption forgotten.
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { Workspace } from "../workspaces/acting.ts";
import type { BillingDeps } from "./deps.ts";

export async function deleteVatExemption(deps: BillingDeps, workspace: Workspace): Promise<void> {
  const { workspaces } = tablesOf(deps.database.db);
  await deps.database.db
    .update(workspaces)
    .set({ vatCountryCode: null, vatNumber: null, vatCompanyName: null })
    .where(eq(workspaces.id, workspace.id));
}
