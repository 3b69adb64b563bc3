// The account's default QR style and logo (GET/PUT /api/qr-style, POST/DELETE /api/qr-style/logo; decision 0067).
import type { Db } from "../db/ports.ts";
import type { User } from "../db/tables.ts";
import { badRequest } from "../http/errors.ts";
import type { LinkDeps } from "./deps.ts";
import type { QrStyle } from "./qr-style-model.ts";
import { ownerQrDefault, saveOwnerQrLogo, saveOwnerQrStyle } from "./qr-style-queries.ts";

export const NO_LOGO = "logo: no logo uploaded yet (POST /api/qr-style/logo)";

/** The default style as the API shows it: the style, and the logo's size (null: none uploaded). */
export async function qrDefault(deps: LinkDeps, user: User) {
  const { style, logo } = await ownerQrDefault(deps.database.db, user.id);
  return { style, logo: logo && { width: logo.width, height: logo.height } };
}

/** A style that asks for the logo needs one uploaded: a 400 otherwise. */
export async function checkLogoUploaded(db: Db, user: User, style: QrStyle | null | undefined): Promise<void> {
  if (style?.logo && !(await ownerQrDefault(db, user.id)).logo) throw badRequest(NO_LOGO, "logo");
}

/** PUT /api/qr-style: the new default (already checked to scan). */
export async function setQrDefault(deps: LinkDeps, user: User, style: QrStyle) {
  await checkLogoUploaded(deps.database.db, user, style);
  await saveOwnerQrStyle(deps.database.db, user.id, style, new Date(deps.clock.now()));
  return qrDefault(deps, user);
}

/** POST /api/qr-style/logo: the file through the image pipeline's checks (size, kind, declared pixels) to a bounded PNG. */
export async function uploadQrLogo(deps: LinkDeps, user: User, file: File) {
  const logo = await deps.images.prepareLogo(file);
  await saveOwnerQrLogo(deps.database.db, user.id, logo, new Date(deps.clock.now()));
  return qrDefault(deps, user);
}

/** DELETE /api/qr-style/logo: styles that ask for it are drawn without it from now on. */
export async function removeQrLogo(deps: LinkDeps, user: User) {
  await saveOwnerQrLogo(deps.database.db, user.id, null, new Date(deps.clock.now()));
  return qrDefault(deps, user);
}
