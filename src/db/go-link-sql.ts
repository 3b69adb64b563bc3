// The columns /go reads, aliased to GoLinkRow's names; the same SQL on both engines.

/** What /go finds under the user slug of a deleted account (src/account/deletion.ts): answered 410 Gone. */
export const RETIRED = "retired";

export const GO_LINK_COLUMNS = `l.id AS "id", l.user_id AS "userId", u.user_slug AS "userSlug", l.link_slug AS "linkSlug",
  l.target_url AS "targetUrl", l.title AS "title", l.description AS "description",
  l.image_url AS "imageUrl", l.image_width AS "imageWidth", l.image_height AS "imageHeight", l.version AS "version",
  l.image_square_url AS "imageSquareUrl", l.image_x_url AS "imageXUrl", l.x_title AS "xTitle", l.whatsapp_description AS "whatsappDescription",
  l.domain_id AS "domainId",
  r.go_rules AS "goRules", CASE WHEN r.go_rules IS NOT NULL THEN r.clicks END AS "clicks",
  l.status AS "status"`;

/** Joined after `links l` wherever GO_LINK_COLUMNS are read: a link's rules row, if it has one, read once. */
export const GO_LINK_RULES_JOIN = "LEFT JOIN link_rules r ON r.link_id = l.id";
