// QR styles in the database (docs/decisions/0067): an owner's default style and logo, keyed by the owner column links
// use (user_id) — the one file to re-key when styles belong to workspaces — and a link's own style, by its link.
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { QrLogo } from "./qr-drawing.ts";
import { DEFAULT_QR_STYLE, parseQrStyle, type QrStyle } from "./qr-style-model.ts";

/** The owner's default style (the built-in one until they set theirs) and logo (null: none uploaded). */
export async function ownerQrDefault(db: Db, userId: number): Promise<{ style: QrStyle; logo: QrLogo | null }> {
  const { qrStyles } = tablesOf(db);
  const [row] = await db.select().from(qrStyles).where(eq(qrStyles.userId, userId));
  const logo =
    row?.logo && row.logoWidth && row.logoHeight
      ? { png: new Uint8Array(Buffer.from(row.logo, "base64")), width: row.logoWidth, height: row.logoHeight }
      : null;
  return { style: parseQrStyle(row?.style ?? null) ?? DEFAULT_QR_STYLE, logo };
}

/** Sets the owner's default style. */
export async function saveOwnerQrStyle(db: Db, userId: number, style: QrStyle, now: Date): Promise<void> {
  const { qrStyles } = tablesOf(db);
  const text = JSON.stringify(style);
  await db
    .insert(qrStyles)
    .values({ userId, style: text, updatedAt: now })
    .onConflictDoUpdate({ target: qrStyles.userId, set: { style: text, updatedAt: now } });
}

/** Sets (or with null removes) the owner's logo. */
export async function saveOwnerQrLogo(db: Db, userId: number, logo: QrLogo | null, now: Date): Promise<void> {
  const { qrStyles } = tablesOf(db);
  const set = {
    logo: logo && Buffer.from(logo.png).toString("base64"),
    logoWidth: logo?.width ?? null,
    logoHeight: logo?.height ?? null,
    updatedAt: now,
  };
  await db
    .insert(qrStyles)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: qrStyles.userId, set });
}

/** Sets a link's own style, or with null lets it follow its owner's default; inside the link's create or update. */
export async function saveLinkQrStyle(tx: Db, linkId: number, style: QrStyle | null): Promise<void> {
  const { linkQrStyles } = tablesOf(tx);
  if (style === null) {
    await tx.delete(linkQrStyles).where(eq(linkQrStyles.linkId, linkId));
    return;
  }
  const text = JSON.stringify(style);
  await tx
    .insert(linkQrStyles)
    .values({ linkId, style: text })
    .onConflictDoUpdate({ target: linkQrStyles.linkId, set: { style: text } });
}

/** Every link's own style of the owner's, by link id (the account export). */
export async function ownerLinkQrStyles(db: Db, userId: number): Promise<Map<number, QrStyle | null>> {
  const { linkQrStyles, links } = tablesOf(db);
  const rows = await db
    .select({ linkId: linkQrStyles.linkId, style: linkQrStyles.style })
    .from(linkQrStyles)
    .innerJoin(links, eq(links.id, linkQrStyles.linkId))
    .where(eq(links.userId, userId));
  return new Map(rows.map((row) => [row.linkId, parseQrStyle(row.style)]));
}

/** The owner's default style and logo and their links' own styles, gone with the account (its deletion runs without foreign keys). */
export async function removeOwnerQrStyles(tx: Db, userId: number): Promise<void> {
  const { linkQrStyles, links, qrStyles } = tablesOf(tx);
  await tx
    .delete(linkQrStyles)
    .where(inArray(linkQrStyles.linkId, tx.select({ id: links.id }).from(links).where(eq(links.userId, userId))));
  await tx.delete(qrStyles).where(eq(qrStyles.userId, userId));
}

/** A link's own style (null: its owner's default); the caller has found the link among its owner's. */
export async function linkOwnQrStyle(db: Db, linkId: number): Promise<QrStyle | null> {
  const { linkQrStyles } = tablesOf(db);
  const [row] = await db
    .select({ style: linkQrStyles.style })
    .from(linkQrStyles)
    .where(eq(linkQrStyles.linkId, linkId));
  return parseQrStyle(row?.style ?? null);
}
