// The columns /go reads, aliased to GoLinkRow's names; the same SQL on both engines.

/** What /go finds under the user slug of a deleted account (src/account/deletion.ts): answered 410 Gone. */
export const RETIRED = "retired";

export const GO_LINK_COLUMNS = `l.id AS "id", l.user_id AS "userId", w.slug AS "userSlug", l.link_slug AS "linkSlug",
  l.target_url AS "targetUrl", l.title AS "title", l.description AS "description",
  l.image_url AS "imageUrl", l.image_width AS "imageWidth", l.image_height AS "imageHeight", l.version AS "version",
  l.image_square_url AS "imageSquareUrl", l.image_x_url AS "imageXUrl", l.x_title AS "xTitle", l.whatsapp_description AS "whatsappDescription",
  l.domain_id AS "domainId",
  r.go_rules AS "goRules", CASE WHEN r.go_rules IS NOT NULL THEN r.clicks END AS "clicks",
  l.status AS "status"`;

/** Joined after `links l` wherever GO_LINK_COLUMNS are read: a link's rules row, if it has one, read once. */
export const GO_LINK_RULES_JOIN = "LEFT JOIN link_rules r ON r.link_id = l.id";

/**
 * A link's earlier address (link_old_addresses, docs/decisions/0047), read when no live link holds the slug: the
 * link's id (null once dropped: 410) and the domain the address was on. A held one goes before a dropped one.
 * Parameters: the workspace slug, the slug, the domain (null: any).
 */
export const OLD_ADDRESS_SQL = (p: (n: number) => string) => `SELECT o.link_id AS "linkId", o.domain_id AS "domainId"
  FROM workspaces w JOIN link_old_addresses o ON o.workspace_id = w.id AND o.link_slug = ${p(2)}
  WHERE w.slug = ${p(1)} AND (CAST(${p(3)} AS integer) IS NULL OR o.domain_id = CAST(${p(3)} AS integer))
  ORDER BY o.link_id IS NULL, o.id DESC LIMIT 1`;

/** Every earlier address's keys for the address filter: the /go one, and the custom domain's (address-key.ts movedSlug). */
export const OLD_ADDRESS_KEYS_SQL = `SELECT w.slug || '/' || o.link_slug AS "key" FROM link_old_addresses o JOIN workspaces w ON w.id = o.workspace_id
  UNION ALL SELECT w.slug || '/' || o.link_slug || '@' || o.domain_id FROM link_old_addresses o JOIN workspaces w ON w.id = o.workspace_id WHERE o.domain_id IS NOT NULL`;
