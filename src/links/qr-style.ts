// The workspace's default QR style and logo (GET/PUT /api/qr-style, POST/DELETE /api/qr-style/logo; decision 0067).
import type { Db } from "../db/ports.ts";
import { badRequest } from "../http/errors.ts";
import type { LinkDeps } from "./deps.ts";
import type { QrStyle } from "./qr-style-model.ts";
import { saveWorkspaceQrLogo, saveWorkspaceQrStyle, workspaceQrDefault } from "./qr-style-queries.ts";
import type { Workspace } from "../workspaces/acting.ts";

export const NO_LOGO = "logo: no logo uploaded yet (POST /api/qr-style/logo)";

/** The default style as the API shows it: the style, and the logo's size (null: none uploaded). */
export async function qrDefault(deps: LinkDeps, workspace: Workspace) {
  const { style, logo } = await workspaceQrDefault(deps.database.db, workspace.id);
  return { style, logo: logo && { width: logo.width, height: logo.height } };
}

/** A style that asks for the logo needs one uploaded: a 400 otherwise. */
export async function checkLogoUploaded(
  db: Db,
  workspace: Workspace,
  style: QrStyle | null | undefined,
): Promise<void> {
  if (style?.logo && !(await workspaceQrDefault(db, workspace.id)).logo) throw badRequest(NO_LOGO, "logo");
}

/** PUT /api/qr-style: the new default (already checked to scan). */
export async function setQrDefault(deps: LinkDeps, workspace: Workspace, style: QrStyle) {
  await checkLogoUploaded(deps.database.db, workspace, style);
  await saveWorkspaceQrStyle(deps.database.db, workspace.id, style, new Date(deps.clock.now()));
  return qrDefault(deps, workspace);
}

/** POST /api/qr-style/logo: the file through the image pipeline's checks (size, kind, declared pixels) to a bounded PNG. */
export async function uploadQrLogo(deps: LinkDeps, workspace: Workspace, file: File) {
  const logo = await deps.images.prepareLogo(file);
  await saveWorkspaceQrLogo(deps.database.db, workspace.id, logo, new Date(deps.clock.now()));
  return qrDefault(deps, workspace);
}

/** DELETE /api/qr-style/logo: styles that ask for it are drawn without it from now on. */
export async function removeQrLogo(deps: LinkDeps, workspace: Workspace) {
  await saveWorkspaceQrLogo(deps.database.db, workspace.id, null, new Date(deps.clock.now()));
  return qrDefault(deps, workspace);
}
