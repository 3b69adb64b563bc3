// GET /api/links/:id/qr: a live link's QR code (drawn by src/links/qr.ts) in its saved style (decision 0067).
import { badRequest, notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrStyle } from "./qr.ts";
import { linkHostname } from "../webhooks/link-events.ts";
import { NO_LOGO } from "./qr-style.ts";
import { linkOwnQrStyle, workspaceQrDefault } from "./qr-style-queries.ts";
import { findLiveLink } from "./queries.ts";
import { shortUrlOf } from "./url.ts";
import type { Workspace } from "../workspaces/acting.ts";

/**
 * GET /api/links/:id/qr: the owner's live link's QR code, with the scan marker (src/links/qr.ts). The style is the
 * link's own, else its workspace's default, each field given in `asked` replacing that field of it.
 */
export async function linkQrCode(
  deps: LinkDeps,
  workspace: Workspace,
  linkId: number,
  format: "svg" | "png",
  size: number,
  asked: Partial<QrStyle>,
) {
  const link = await findLiveLink(deps.database.db, workspace.id, { id: linkId });
  if (!link) throw notFound(LINK_NOT_FOUND);
  const saved = await workspaceQrDefault(deps.database.db, workspace.id);
  const own = await linkOwnQrStyle(deps.database.db, link.id);
  const given = Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined));
  const style: QrStyle = { ...(own ?? saved.style), ...given };
  const problem = unscannable(style);
  if (problem) throw badRequest(problem, problem.startsWith("logoSize") ? "logoSize" : "fg");
  // A saved style whose logo was removed is drawn without it; asking for the logo by name is refused.
  if (style.logo && !saved.logo) {
    if (asked.logo) throw badRequest(NO_LOGO, "logo");
    style.logo = false;
  }
  const logo = style.logo ? (saved.logo ?? undefined) : undefined;
  const text = qrUrl(
    shortUrlOf(deps.publicUrl, workspace.slug, link.linkSlug, 1, await linkHostname(deps.database.db, link.domainId)),
  );
  const body =
    format === "svg"
      ? qrSvg(
          text,
          size,
          style,
          logo && { ...logo, href: `data:image/png;base64,${Buffer.from(logo.png).toString("base64")}` },
        )
      : await qrPng(text, size, style, logo);
  return {
    body,
    contentType: format === "svg" ? "image/svg+xml" : "image/png",
    filename: `${link.linkSlug}-qr.${format}`,
  };
}
