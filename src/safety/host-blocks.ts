// `linkprev admin hosts block|unblock HOST`: the instance's own blocked hosts, stored as threat entries of the
// source "operator". Blocking refuses future targets on the host (and its subdomains) and disables the live
// links on it, in one transaction with the audit row; unblocking re-enables none (each is enabled on its own).
import { and, eq } from "drizzle-orm";
import { badRequest } from "../http/errors.ts";
import { tablesOf } from "../db/tables.ts";
import { audit } from "./audit.ts";
import type { SafetyDeps } from "./deps.ts";
import { fillDestinationIndex } from "./destinations.ts";
import { announceDisabled, disableMatching } from "./disable-matching.ts";
import { hostEntry, isPublicSuffix, normaliseHost } from "./matching.ts";

export const OPERATOR = "operator";

export async function blockHost(deps: SafetyDeps, host: string, actor: string, why: string): Promise<number> {
  const { threatEntries } = tablesOf(deps.database.db);
  const entry = hostEntry(host);
  if (!entry) {
    const normal = normaliseHost(host);
    throw badRequest(
      normal && isPublicSuffix(normal)
        ? `${normal} is a public suffix: block the hosts under it one by one`
        : `${host} is not a host name`,
    );
  }
  const at = new Date(deps.clock.now());
  await fillDestinationIndex(deps.database);
  const disabled = await deps.database.transaction(async (tx) => {
    await tx
      .insert(threatEntries)
      .values({ ...entry, source: OPERATOR, addedAt: at })
      .onConflictDoNothing();
    await audit(tx, { actor, action: "host.block", subject: entry.value, reason: why }, at);
    return disableMatching(tx, deps.publicUrl, OPERATOR, [entry], actor, at);
  });
  await announceDisabled(deps.changes, disabled);
  return disabled.addresses.length;
}

export async function unblockHost(deps: SafetyDeps, host: string, actor: string, why: string): Promise<void> {
  const { threatEntries } = tablesOf(deps.database.db);
  const value = normaliseHost(host) ?? host;
  const at = new Date(deps.clock.now());
  await deps.database.transaction(async (tx) => {
    await tx
      .delete(threatEntries)
      .where(and(eq(threatEntries.source, OPERATOR), eq(threatEntries.kind, "host"), eq(threatEntries.value, value)));
    await audit(tx, { actor, action: "host.unblock", subject: value, reason: why }, at);
  });
}
