// Which custom domain a link is placed on: the `domain` of a create or an edit, named by hostname (any form the
// owner types), resolved to one of the owner's own domains (the hostname a link is shown at: webhooks/link-events.ts).
import type { Db } from "../db/ports.ts";
import { findDomainByHostname } from "../domains/queries.ts";
import { normaliseHost } from "../domains/normalise-hostname.ts";
import { badRequest } from "../http/errors.ts";

const NO_SUCH_DOMAIN =
  "domain: Not one of your domains; add it on the Domains page first (or leave it empty for this instance's address)";

/** The domain id for `domain` (undefined: left out, unchanged; null: the instance host). */
export async function linkDomainId(
  db: Db,
  workspaceId: number,
  domain: string | null | undefined,
): Promise<number | null | undefined> {
  if (domain === undefined || domain === null) return domain;
  const hostname = normaliseHost(domain);
  const row = hostname === null ? null : await findDomainByHostname(db, workspaceId, hostname);
  if (!row) throw badRequest(NO_SUCH_DOMAIN, "domain");
  return row.id;
}
