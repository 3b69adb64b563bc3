// QR styles in the database (docs/decisions/0067): a workspace's default style and logo, and a link's own style, by
// its link.
import { eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { QrLogo } from "./qr-drawing.ts";
import { DEFAULT_QR_STYLE, parseQrStyle, type QrStyle } from "./qr-style-model.ts";

/** The workspace's default style (the built-in one until one is set) and logo (null: none uploaded). */
export async function workspaceQrDefault(
  db: Db,
  workspaceId: number,
): Promise<{ style: QrStyle; logo: QrLogo | null }> {
  const { qrStyles } = tablesOf(db);
  return qrDefaultWhere(db, eq(qrStyles.workspaceId, workspaceId));
}

/** The default style and logo of the user's personal workspace (the account export). */
export async function personalQrDefault(db: Db, userId: number): Promise<{ style: QrStyle; logo: QrLogo | null }> {
  const { qrStyles, workspaces } = tablesOf(db);
  const personal = db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalUserId, userId));
  return qrDefaultWhere(db, inArray(qrStyles.workspaceId, personal));
}

async function qrDefaultWhere(db: Db, where: SQL | undefined): Promise<{ style: QrStyle; logo: QrLogo | null }> {
  const { qrStyles } = tablesOf(db);
  const [row] = await db.select().from(qrStyles).where(where);
  const logo =
    row?.logo && row.logoWidth && row.logoHeight
      ? { png: new Uint8Array(Buffer.from(row.logo, "base64")), width: row.logoWidth, height: row.logoHeight }
      : null;
  return { style: parseQrStyle(row?.style ?? null) ?? DEFAULT_QR_STYLE, logo };
}

/** Sets the workspace's default style. */
export async function saveWorkspaceQrStyle(db: Db, workspaceId: number, style: QrStyle, now: Date): Promise<void> {
  const { qrStyles } = tablesOf(db);
  const text = JSON.stringify(style);
  await db
    .insert(qrStyles)
    .values({ workspaceId, style: text, updatedAt: now })
    .onConflictDoUpdate({ target: qrStyles.workspaceId, set: { style: text, updatedAt: now } });
}

/** Sets (or with null removes) the workspace's logo. */
export async function saveWorkspaceQrLogo(db: Db, workspaceId: number, logo: QrLogo | null, now: Date): Promise<void> {
  const { qrStyles } = tablesOf(db);
  const set = {
    logo: logo && Buffer.from(logo.png).toString("base64"),
    logoWidth: logo?.width ?? null,
    logoHeight: logo?.height ?? null,
    updatedAt: now,
  };
  await db
    .insert(qrStyles)
    .values({ workspaceId, ...set })
    .onConflictDoUpdate({ target: qrStyles.workspaceId, set });
}

/** Sets a link's own style, or with null lets it follow its workspace's default; inside the link's create or update. */
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

/** The own style of every link the user created, by link id (the account export: a member's own data). */
export async function createdLinkQrStyles(db: Db, userId: number): Promise<Map<number, QrStyle | null>> {
  const { linkQrStyles, links } = tablesOf(db);
  const rows = await db
    .select({ linkId: linkQrStyles.linkId, style: linkQrStyles.style })
    .from(linkQrStyles)
    .innerJoin(links, eq(links.id, linkQrStyles.linkId))
    .where(eq(links.userId, userId));
  return new Map(rows.map((row) => [row.linkId, parseQrStyle(row.style)]));
}

/** The own styles of the workspace's links and its default style and logo, gone with the workspace (its removal runs without foreign keys). */
export async function removeWorkspaceQrStyles(tx: Db, workspaceId: number): Promise<void> {
  const { linkQrStyles, links, qrStyles } = tablesOf(tx);
  await tx
    .delete(linkQrStyles)
    .where(
      inArray(linkQrStyles.linkId, tx.select({ id: links.id }).from(links).where(eq(links.workspaceId, workspaceId))),
    );
  await tx.delete(qrStyles).where(eq(qrStyles.workspaceId, workspaceId));
}

/** A link's own style (null: its workspace's default); the caller has found the link in its workspace. */
export async function linkOwnQrStyle(db: Db, linkId: number): Promise<QrStyle | null> {
  const { linkQrStyles } = tablesOf(db);
  const [row] = await db
    .select({ style: linkQrStyles.style })
    .from(linkQrStyles)
    .where(eq(linkQrStyles.linkId, linkId));
  return parseQrStyle(row?.style ?? null);
}
