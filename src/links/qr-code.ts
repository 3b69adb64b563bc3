// GET /api/links/:id/qr: a live link's QR code (drawn by src/links/qr.ts).
import { badRequest, notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrStyle } from "./qr.ts";
import { linkHostname } from "../webhooks/link-events.ts";
import { findLiveLink } from "./queries.ts";
import { shortUrlOf } from "./url.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** GET /api/links/:id/qr: the owner's live link's QR code, with the scan marker (src/links/qr.ts). */
export async function linkQrCode(
  deps: LinkDeps,
  workspace: Workspace,
  linkId: number,
  format: "svg" | "png",
  size: number,
  style: QrStyle,
) {
  const problem = unscannable(style);
  if (problem) throw badRequest(problem, "fg");
  const link = await findLiveLink(deps.database.db, workspace.id, { id: linkId });
  if (!link) throw notFound(LINK_NOT_FOUND);
  const text = qrUrl(
    shortUrlOf(deps.publicUrl, workspace.slug, link.linkSlug, 1, await linkHostname(deps.database.db, link.domainId)),
  );
  const body = format === "svg" ? qrSvg(text, size, style) : await qrPng(text, size, style);
  return {
    body,
    contentType: format === "svg" ? "image/svg+xml" : "image/png",
    filename: `${link.linkSlug}-qr.${format}`,
  };
}
