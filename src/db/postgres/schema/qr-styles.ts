// QR code styles (docs/decisions/0067): the twin of src/db/sqlite/schema/qr-styles.ts, which says why.
import { sql } from "drizzle-orm";
import { check, integer, primaryKey, pgTable, text } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns.ts";
import { workspaces } from "./accounts.ts";
import { links } from "./links.ts";

export const qrStyles = pgTable(
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

export const linkQrStyles = pgTable(
  "link_qr_styles",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    style: text("style").notNull(),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), check("link_qr_styles_style_len", sql`length(${t.style}) <= 1024`)],
);
