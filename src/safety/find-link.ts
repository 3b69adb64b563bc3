// A live link named by its short address: `user/link`, `/go/user/link`, a full short URL, with or without a version
// or the inspect `+`; or a custom domain's short URL (https://{domain}/{link}), which names that domain's own link only.
// An earlier address the link still answers at (docs/decisions/0047) names it as /go and the custom host serve it.
import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { DOMAIN_STATUSES, isServed } from "../domains/model.ts";
import { notFound } from "../http/errors.ts";

/** The path's parts, decoded, without the inspect `+`; null when it does not decode. */
function pathParts(path: string): string[] | null {
  const parts = path.replace(/^\/+|\/+$/g, "").split("/");
  try {
    return parts.map((part) => decodeURIComponent(part).replace(/\+$/, ""));
  } catch {
    return null;
  }
}

export function parseAddress(address: string): { userSlug: string; linkSlug: string } | null {
  let path = address.trim();
  if (URL.canParse(path)) path = new URL(path).pathname;
  const decoded = pathParts(path.replace(/^\/*go\//, ""));
  if (!decoded || decoded.length < 2 || decoded.length > 3) return null;
  const [userSlug, linkSlug] = decoded;
  return userSlug && linkSlug ? { userSlug, linkSlug } : null;
}

const SERVED_STATUSES = DOMAIN_STATUSES.filter(isServed);

const linkColumns = (db: Db) => {
  const { links, workspaces } = tablesOf(db);
  return {
    id: links.id,
    userId: links.userId,
    userSlug: workspaces.slug,
    linkSlug: links.linkSlug,
    targetUrl: links.targetUrl,
    status: links.status,
    disabledReason: links.disabledReason,
    createdAt: links.createdAt,
  };
};

/**
 * The live link an earlier address held by it names: `slug` under the user `where` selects, on the domain
 * `domainId` (null: any, as /go answers every link's earlier slugs). The newest, as /go reads it (OLD_ADDRESS_SQL).
 */
async function findByEarlierAddress(db: Db, where: SQL | undefined, slug: string, domainId: number | null) {
  const { linkOldAddresses, links, workspaces } = tablesOf(db);
  const [row] = await db
    .select(linkColumns(db))
    .from(linkOldAddresses)
    .innerJoin(links, eq(links.id, linkOldAddresses.linkId))
    .innerJoin(workspaces, eq(workspaces.id, linkOldAddresses.workspaceId))
    .where(
      and(
        where,
        eq(linkOldAddresses.linkSlug, slug),
        domainId === null ? undefined : eq(linkOldAddresses.domainId, domainId),
        eq(links.deleted, false),
      ),
    )
    .orderBy(desc(linkOldAddresses.id))
    .limit(1);
  return row;
}

/**
 * A served custom domain's link at a URL on it, with its short address there (`shortUrl`, version included, no
 * `+`). `undefined`: the URL's host is no served custom domain; null: it is one, with no such link of its owner's.
 */
async function findOnCustomDomain(db: Db, address: string) {
  const { domains, linkOldAddresses, links, workspaces } = tablesOf(db);
  if (!URL.canParse(address)) return undefined;
  const url = new URL(address);
  const hostname = url.hostname.replace(/\.+$/, "");
  const [domain] = await db
    .select({ id: domains.id, workspaceId: domains.workspaceId, hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.hostname, hostname), inArray(domains.status, SERVED_STATUSES)))
    .limit(1);
  if (!domain) return undefined;
  // /{slug} or /{slug}/{version}, as src/go/custom-host.ts serves them.
  const parts = pathParts(url.pathname);
  if (!parts || parts.length > 2 || !parts[0]) return null;
  const [row] = await db
    .select(linkColumns(db))
    .from(links)
    .innerJoin(workspaces, eq(workspaces.id, links.workspaceId))
    .where(
      and(
        eq(links.domainId, domain.id),
        eq(links.workspaceId, domain.workspaceId),
        eq(links.linkSlug, parts[0]),
        eq(links.deleted, false),
      ),
    )
    .limit(1)
    .then(async ([own]) => [
      own ??
        (await findByEarlierAddress(db, eq(linkOldAddresses.workspaceId, domain.workspaceId), parts[0]!, domain.id)),
    ]);
  const path = parts.map(encodeURIComponent).join("/");
  return row ? { ...row, shortUrl: `${url.protocol}//${domain.hostname}/${path}` } : null;
}

/** `shortUrl`: the custom-domain address the link was named by, null for its /go address. */
export async function findLinkByAddress(db: Db, address: string) {
  const { links, workspaces } = tablesOf(db);
  const custom = await findOnCustomDomain(db, address.trim());
  if (custom !== undefined) {
    if (!custom) throw notFound(`No live link at ${address}`);
    return custom;
  }
  const parsed = parseAddress(address);
  const [row] = parsed
    ? await db
        .select(linkColumns(db))
        .from(links)
        .innerJoin(workspaces, eq(workspaces.id, links.workspaceId))
        .where(and(eq(workspaces.slug, parsed.userSlug), eq(links.linkSlug, parsed.linkSlug), eq(links.deleted, false)))
        .limit(1)
        .then(async ([live]) => [
          live ?? (await findByEarlierAddress(db, eq(workspaces.slug, parsed.userSlug), parsed.linkSlug, null)),
        ])
    : [];
  if (!row) throw notFound(`No live link at ${address}`);
  return { ...row, shortUrl: null };
}
