// QR code styles (docs/decisions/0067): a workspace's default style and logo, and a link's own style. Re-exported by
// ../schema.ts.
import { sql } from "drizzle-orm";
import { check, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { updatedAt } from "./columns.ts";
import { workspaces } from "./accounts.ts";
import { links } from "./links.ts";

/**
 * A workspace's default QR style (`style`: its JSON, null = the built-in one) and logo. The logo is a small PNG made by
 * the image pipeline (src/links/images/normalise.ts normaliseLogo), kept as base64 text: both engines store text alike,
 * and the SVG embeds it as it is. src/links/qr-style-queries.ts alone reads it.
 */
export const qrStyles = sqliteTable(
  "qr_styles",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    style: text("style"),
    logo: text("logo"),
    logoWidth: integer("logo_width"),
    logoHeight: integer("logo_height"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId] }),
    check("qr_styles_style_len", sql`${t.style} is null or length(${t.style}) <= 1024`),
    check("qr_styles_logo_len", sql`${t.logo} is null or length(${t.logo}) <= 2000000`),
  ],
);

/** A link's own QR style (its JSON); no row: the workspace's default. */
export const linkQrStyles = sqliteTable(
  "link_qr_styles",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    style: text("style").notNull(),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), check("link_qr_styles_style_len", sql`length(${t.style}) <= 1024`)],
);
