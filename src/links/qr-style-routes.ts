// /api/qr-style: the workspace's default QR style and its logo (issue 52, decision 0067).
import { Elysia } from "elysia";
import { z } from "zod";
import { asJson } from "../api-docs/json.ts";
import { routeGuards } from "../auth/guards.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { badRequest } from "../http/errors.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { LinkDeps } from "./deps.ts";
import { qrDefault, removeQrLogo, setQrDefault, uploadQrLogo } from "./qr-style.ts";
import { QrDefaultSchema, QrStyleInput } from "./qr-style-model.ts";

/** What /api/qr-style needs; `fetchLimiter`: a logo is decoded, so it counts like an image upload. */
export type QrStyleRouteDeps = { links: LinkDeps; fetchLimiter: RateLimiter; session: SessionDeps };

const LogoForm = z.object({
  logo: z.unknown().describe("multipart/form-data: the logo, a JPEG, PNG or WebP image (transparency kept)"),
});

const styleExample = { fg: "#1a237e", bg: "#fff8e1", shape: "dots", finder: "rounded", logo: true, logoSize: 0.25 };

export function qrStyleRoutes({ links: deps, fetchLimiter, session }: QrStyleRouteDeps) {
  return new Elysia({ prefix: "/api/qr-style" })
    .use(routeGuards(session))
    .get("/", async ({ workspace }) => asJson(await qrDefault(deps, workspace)), {
      permission: "links.read",
      response: { 200: QrDefaultSchema },
      doc: {
        id: "getQrStyle",
        tag: "Links",
        summary: "The workspace's default QR style",
        description: "What GET /api/links/{id}/qr draws for a link without its own qrStyle.",
        answers: { 200: "The style and the logo's size" },
      },
    })
    .put("/", async ({ workspace, body }) => asJson(await setQrDefault(deps, workspace, body)), {
      permission: "links.write",
      body: QrStyleInput,
      response: { 200: QrDefaultSchema },
      doc: {
        id: "setQrStyle",
        tag: "Links",
        summary: "Set the workspace's default QR style",
        description:
          "Fields left out take the built-in default's. A style that would not scan is refused with 400 naming why: fg lighter than bg unless inverted is true, contrast under 3:1, a logo wider than 0.38 of the code (level H restores 30 %; at most 15 % may be covered), or logo true with no logo uploaded.",
        body: { example: styleExample },
        errors: [400],
        answers: { 200: "The style and the logo's size" },
      },
    })
    .post(
      "/logo",
      async ({ user, workspace, body }) => {
        if (!(body.logo instanceof File) || body.logo.size === 0) throw badRequest("logo: send an image file", "logo");
        await fetchLimiter.hit(`fetch:user:${user.id}`);
        return asJson(await uploadQrLogo(deps, workspace, body.logo));
      },
      {
        permission: "links.write",
        body: LogoForm,
        response: { 200: QrDefaultSchema },
        doc: {
          id: "uploadQrLogo",
          tag: "Links",
          summary: "Upload the logo QR codes show",
          description:
            "multipart/form-data with a `logo` file (JPEG, PNG or WebP, at most 5 MB and the pixels an upload may have; checked before it is decoded). Kept as a PNG of at most 512 px, transparency kept.",
          body: { multipart: true },
          errors: [400, 413, 422, 429, 503],
          answers: { 200: "The style and the logo's size" },
        },
      },
    )
    .delete("/logo", async ({ workspace }) => asJson(await removeQrLogo(deps, workspace)), {
      permission: "links.write",
      response: { 200: QrDefaultSchema },
      doc: {
        id: "removeQrLogo",
        tag: "Links",
        summary: "Remove the logo",
        description: "Styles that ask for a logo are drawn without one from now on.",
        answers: { 200: "The style, without a logo" },
      },
    });
}
