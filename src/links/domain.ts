// Which custom domain a link is placed on: the `domain` of a create or an edit, named by hostname (any form the
// owner types), resolved to one of the owner's own domains; and a link's hostname for the addresses it is shown at.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { isServed } from "../domains/model.ts";
import { findDomainByHostname } from "../domains/queries.ts";
import { normaliseHost } from "../domains/normalise-hostname.ts";
import { badRequest } from "../http/errors.ts";

const NO_SUCH_DOMAIN =
  "domain: Not one of your domains; add it on the Domains page first (or leave it empty for this instance's address)";

/** The domain id for `domain` (undefined: left out, unchanged; null: the instance host). */
export async function linkDomainId(
  db: Db,
  userId: number,
  domain: string | null | undefined,
): Promise<number | null | undefined> {
  if (domain === undefined || domain === null) return domain;
  const hostname = normaliseHost(domain);
  const row = hostname === null ? null : await findDomainByHostname(db, userId, hostname);
  if (!row) throw badRequest(NO_SUCH_DOMAIN, "domain");
  return row.id;
}

/** The hostname a link is shared at: its domain's once verified (null: the instance host, meanwhile too). */
export async function linkHostname(db: Db, domainId: number | null): Promise<string | null> {
  const { domains } = tablesOf(db);
  if (domainId === null) return null;
  const [row] = await db
    .select({ hostname: domains.hostname, status: domains.status })
    .from(domains)
    .where(eq(domains.id, domainId));
  return row && isServed(row.status) ? row.hostname : null;
}
