// Brakes on abuse that real users do not feel: an account younger than NEW_ACCOUNT_HOURS creates at most
// NEW_ACCOUNT_LINKS links (not the instance owner, the first user, nor an account an operator trusts), and one account creates at most TARGET_HOST_LINKS_PER_HOUR links to one registrable domain an hour.
// 0 turns each off. Deleted links count: deleting is no way around either.
import { and, eq, gte, min, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { tooManyRequests } from "../http/errors.ts";
import type { SafetyDeps } from "./deps.ts";
import { targetDomainOf } from "./matching.ts";

const HOUR_MS = 3_600_000;
const count = () => sql<number>`count(*)`.mapWith(Number);

const when = (at: number) => new Date(at).toISOString().replace(/\.\d+Z$/, "Z");

/** Trusted by an operator, or the instance's owner: the first account, who set the instance up. */
async function isTrusted(tx: Db, user: User): Promise<boolean> {
  const { users } = tablesOf(tx);
  if (user.trustedAt) return true;
  const [{ first }] = await tx.select({ first: min(users.id) }).from(users);
  return first === user.id;
}

/** Runs inside the create's transaction (`tx`), after the user's row lock, so that parallel creates count each other. */
export async function checkCreateLimits(deps: SafetyDeps, tx: Db, user: User, targetUrl: string): Promise<void> {
  const { links } = tablesOf(tx);
  const now = deps.clock.now();
  const { newAccountHours, newAccountLinks, targetHostLinksPerHour } = deps.limits;
  const grownUpAt = user.createdAt.getTime() + newAccountHours * HOUR_MS;
  if (newAccountHours > 0 && newAccountLinks > 0 && now < grownUpAt) {
    const [{ made }] = await tx.select({ made: count() }).from(links).where(eq(links.userId, user.id));
    if (made >= newAccountLinks && !(await isTrusted(tx, user))) {
      throw tooManyRequests(
        `New accounts can create ${newAccountLinks} links in their first ${newAccountHours} hours. Try again after ${when(grownUpAt)}.`,
        grownUpAt - now,
      );
    }
  }
  if (targetHostLinksPerHour > 0) {
    // Per registrable domain: subdomains (and a wildcard DNS record's endless names) are one host to the brake.
    const domain = targetDomainOf(targetUrl) ?? targetUrl;
    const since = new Date(now - HOUR_MS);
    const [{ made, oldest }] = await tx
      .select({ made: count(), oldest: sql<Date>`min(${links.createdAt})`.mapWith(links.createdAt) })
      .from(links)
      .where(and(eq(links.userId, user.id), eq(links.targetDomain, domain), gte(links.createdAt, since)));
    if (made >= targetHostLinksPerHour) {
      throw tooManyRequests(
        `You created ${made} links to ${domain} in the last hour (at most ${targetHostLinksPerHour}). Try again after ${when(oldest.getTime() + HOUR_MS)}.`,
        oldest.getTime() + HOUR_MS - now,
      );
    }
  }
}
