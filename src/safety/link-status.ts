// Disabling and enabling links: one transaction that sets the status, names the reason, writes the audit row and
// records link.disabled for each link that was active; then every /go cache drops the addresses.
import { inArray } from "drizzle-orm";
import { addressKey } from "../db/address-key.ts";
import { linkChange, type Change } from "../db/change.ts";
import type { ChangeBus, Database, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { linkRef, liveLinkFacts } from "../webhooks/link-events.ts";
import { recordEvent } from "../webhooks/record-event.ts";
import { audit } from "./audit.ts";

export type StatusChange = { status: "active" | "disabled"; reason: string | null; actor: string; why: string };

/**
 * The live links `ids` as `change` says, within `tx`; their changes, for announcing after the commit.
 * `publicUrl` (PUBLIC_URL) builds the events' short URLs.
 */
export async function setLinkStatus(
  tx: Db,
  publicUrl: string,
  ids: number[],
  change: StatusChange,
  at: Date,
): Promise<Change[]> {
  const { links } = tablesOf(tx);
  if (ids.length === 0) return [];
  const rows = await liveLinkFacts(tx, ids);
  if (rows.length === 0) return [];
  await tx
    .update(links)
    .set({ status: change.status, disabledReason: change.reason, updatedAt: at })
    .where(
      inArray(
        links.id,
        rows.map((row) => row.id),
      ),
    );
  for (const row of rows) {
    await audit(
      tx,
      {
        actor: change.actor,
        action: change.status === "disabled" ? "link.disable" : "link.enable",
        subject: addressKey(row.userSlug, row.linkSlug),
        reason: change.why,
      },
      at,
    );
    if (change.status !== "disabled" || row.status !== "active") continue;
    const data = { ...linkRef(publicUrl, row.userSlug, row, row.domain), reason: change.reason ?? change.why };
    await recordEvent(tx, { workspaceId: row.workspaceId, type: "link.disabled", data, at: at.getTime() });
  }
  return rows.map((row) => linkChange(row.userSlug, row.linkSlug));
}

export async function announce(changes: ChangeBus, changed: Change[]): Promise<void> {
  for (const change of changed) await changes.announceChange(change);
}

/** setLinkStatus in a transaction of its own, announced once committed; how many links changed. */
export async function changeLinkStatus(
  deps: { database: Database; changes: ChangeBus; publicUrl: string },
  ids: number[],
  change: StatusChange,
  at: Date,
): Promise<number> {
  const changed = await deps.database.transaction((tx) => setLinkStatus(tx, deps.publicUrl, ids, change, at));
  await announce(deps.changes, changed);
  return changed.length;
}
