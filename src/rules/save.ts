// Writing a link's rules, inside the link's own create or update transaction: the JSON /go caches.
import { sql } from "drizzle-orm";
import type { Database, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { badRequest } from "../http/errors.ts";
import { checkTargetSafety } from "../safety/check-target.ts";
import type { SafetyDeps } from "../safety/deps.ts";
import { indexLinkDestinations } from "../safety/destinations.ts";
import { parseGoRules, touchesRules, type GoRules, type RulesInput } from "./model.ts";

/** Argon2id (Bun.password) at OWASP's recommended cost (19 MiB, 2 passes), computed before the transaction: on SQLite nothing slow may run inside it. */
export const hashPassword = (password: string): Promise<string> =>
  Bun.password.hash(password, { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 });

/**
 * The rules after an edit: a field absent keeps the current value, null removes it. `passwordHash`: the hash of
 * the new password when one was given.
 */
export function rulesAfter(current: GoRules | null, input: RulesInput, passwordHash: string | undefined): GoRules {
  const next: GoRules = { ...current };
  const apply = <K extends keyof GoRules>(key: K, value: GoRules[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[key];
    else next[key] = value;
  };
  apply("expiresAt", input.expiresAt);
  apply("maxClicks", input.maxClicks);
  apply("expiredUrl", input.expiredUrl);
  apply("passwordHash", input.password === undefined ? undefined : (passwordHash ?? null));
  apply("rules", input.rules === undefined ? undefined : input.rules?.length ? input.rules : null);
  return next;
}

/** The stored rules of a link (null: none). */
export async function currentRules(db: Db, linkId: number): Promise<GoRules | null> {
  const { linkRules } = tablesOf(db);
  const [row] = await db
    .select({ goRules: linkRules.goRules })
    .from(linkRules)
    .where(sql`${linkRules.linkId} = ${linkId}`);
  return parseGoRules(row?.goRules ?? null);
}

/**
 * Stores `rules` on the link's row (created on first use); an empty set stores null, which /go skips at no cost.
 * Their addresses go to the per-host index a feed refresh reads.
 */
export async function saveRules(tx: Db, linkId: number, rules: GoRules): Promise<void> {
  const { linkRules } = tablesOf(tx);
  const goRules = Object.keys(rules).length > 0 ? JSON.stringify(rules) : null;
  await tx
    .insert(linkRules)
    .values({ linkId, goRules })
    .onConflictDoUpdate({ target: linkRules.linkId, set: { goRules } });
  await indexLinkDestinations(tx, linkId, rules);
}

/**
 * The rules a create or update writes (undefined: it leaves them alone). Rule targets and the expired address may
 * not lead back here and pass the safety check, like the target itself; a new password is hashed now, before the
 * transaction.
 */
export async function rulesToWrite(
  // What of a link's deps (src/links/deps.ts) the rules use: rules sit below links (.dependency-cruiser.cjs).
  deps: { database: Database; leadsHere: (url: URL) => Promise<boolean>; safety: SafetyDeps },
  input: RulesInput,
  linkId: number | null,
): Promise<GoRules | undefined> {
  if (!touchesRules(input)) return undefined;
  const addresses: Array<[string, string]> = [
    ...(input.expiredUrl ? [["expiredUrl", input.expiredUrl] as [string, string]] : []),
    ...(input.rules ?? []).map((rule, index): [string, string] => [`rules.${index}.targetUrl`, rule.targetUrl]),
  ];
  for (const [field, url] of addresses) {
    if (await deps.leadsHere(new URL(url)))
      throw badRequest(`${field}: cannot be a LinkPrev short URL or another address of this server`, field);
    await checkTargetSafety(deps.safety, url, field);
  }
  const current = linkId === null ? null : await currentRules(deps.database.db, linkId);
  return rulesAfter(current, input, input.password ? await hashPassword(input.password) : undefined);
}
