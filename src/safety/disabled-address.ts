// A disable stays with its address: a link made at a workspace's slug whose deleted link was disabled (by an operator, a
// feed or a suspension) is born disabled with that reason, so deleting and re-creating is no way around a disable.
// Found through links_disabled_address_idx, which holds only such rows.
import { and, desc, eq } from "drizzle-orm";
import { addressKey } from "../db/address-key.ts";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { audit } from "./audit.ts";

/** The status fields a new link at `linkSlug` starts with, within its write (`tx`); the audit row says why. */
export async function carriedDisable(
  tx: Db,
  workspace: { id: number; slug: string },
  linkSlug: string,
  at: Date,
): Promise<{ status?: "disabled"; disabledReason?: string }> {
  const { links } = tablesOf(tx);
  const [before] = await tx
    .select({ reason: links.disabledReason })
    .from(links)
    .where(
      and(
        eq(links.workspaceId, workspace.id),
        eq(links.linkSlug, linkSlug),
        eq(links.deleted, true),
        eq(links.status, "disabled"),
      ),
    )
    .orderBy(desc(links.id))
    .limit(1);
  if (!before) return {};
  const reason = before.reason ?? "Disabled";
  await audit(
    tx,
    {
      actor: "safety",
      action: "link.disable",
      subject: addressKey(workspace.slug, linkSlug),
      reason: `The deleted link at this address was disabled: ${reason}`,
    },
    at,
  );
  return { status: "disabled", disabledReason: reason };
}
