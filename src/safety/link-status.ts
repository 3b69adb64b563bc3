// Disabling and enabling links: one transaction that sets the status, names the reason and writes the audit row;
// then every /go cache drops the addresses. (A `link.disabled` webhook event belongs inside setLinkStatus's
// transaction, next to the audit row.)
import { and, eq, inArray } from "drizzle-orm";
import { linkChangeKey } from "../db/link-change-key.ts";
import type { ChangeBus, Database, Db } from "../db/ports.ts";
import { links, users } from "../db/tables.ts";
import { audit } from "./audit.ts";

export type StatusChange = { status: "active" | "disabled"; reason: string | null; actor: string; why: string };

/** The live links `ids` as `change` says, within `tx`; their short addresses, for announcing after the commit. */
export async function setLinkStatus(tx: Db, ids: number[], change: StatusChange, at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: links.id, linkSlug: links.linkSlug, userSlug: users.userSlug })
    .from(links)
    .innerJoin(users, eq(users.id, links.userId))
    .where(and(inArray(links.id, ids), eq(links.deleted, false)));
  if (rows.length === 0) return [];
  await tx
    .update(links)
    .set({ status: change.status, disabledReason: change.reason, updatedAt: at })
    .where(inArray(links.id, rows.map((row) => row.id)));
  const addresses = rows.map((row) => linkChangeKey(row.userSlug, row.linkSlug));
  for (const subject of addresses) {
    await audit(tx, { actor: change.actor, action: change.status === "disabled" ? "link.disable" : "link.enable", subject, reason: change.why }, at);
  }
  return addresses;
}

export async function announce(changes: ChangeBus, addresses: string[]): Promise<void> {
  for (const key of addresses) await changes.announceLinkChange(key);
}

/** setLinkStatus in a transaction of its own, announced once committed; how many links changed. */
export async function changeLinkStatus(database: Database, changes: ChangeBus, ids: number[], change: StatusChange, at: Date): Promise<number> {
  const addresses = await database.transaction((tx) => setLinkStatus(tx, ids, change, at));
  await announce(changes, addresses);
  return addresses.length;
}
