// The columns /go reads, aliased to GoLinkRow's names; the same SQL on both engines.

/** What /go finds under the user slug of a deleted account (src/account/deletion.ts): answered 410 Gone. */
export const RETIRED = "retired";

export const GO_LINK_COLUMNS = `l.id AS "id", l.user_id AS "userId", u.user_slug AS "userSlug", l.link_slug AS "linkSlug",
  l.target_url AS "targetUrl", l.title AS "title", l.description AS "description",
  l.image_url AS "imageUrl", l.image_width AS "imageWidth", l.image_height AS "imageHeight", l.version AS "version",
  l.image_square_url AS "imageSquareUrl", l.image_x_url AS "imageXUrl", l.x_title AS "xTitle", l.whatsapp_description AS "whatsappDescription",
  l.domain_id AS "domainId",
  (SELECT r.go_rules FROM link_rules r WHERE r.link_id = l.id) AS "goRules",
  (SELECT r.clicks FROM link_rules r WHERE r.link_id = l.id AND r.go_rules IS NOT NULL) AS "clicks",
  l.status AS "status"`;
