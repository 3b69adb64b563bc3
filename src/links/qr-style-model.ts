// A QR style as the API, the CLI and the link editor read it (issue 52, decisions 0062 and 0067): the JSON of
// PUT /api/qr-style and a link's `qrStyle`, and the query of GET /api/links/{id}/qr. Pure: the island imports it.
import { z } from "zod";
import { DEFAULT_QR_STYLE, QR_MAX_LOGO_SIZE, unscannable, type QrStyle } from "./qr-drawing.ts";

export const QR_SHAPES = ["square", "rounded", "dots"] as const;
export const QR_FINDERS = ["square", "rounded", "dot"] as const;
export const QR_ECC_LEVELS = ["L", "M", "Q", "H"] as const;
/** Below two modules of margin many scanners miss the finder patterns (the standard asks four). */
export const QR_MARGIN_MIN = 2;
export const QR_MARGIN_MAX = 16;
/** The logo's width as a share of the code's; past QR_MAX_LOGO_SIZE it is refused as too large to scan. */
export const QR_LOGO_SIZE_MIN = 0.1;
export const QR_LOGO_SIZE_MAX = 0.5;

const hexColour = (name: string) =>
  z.string(`${name} must be a colour #rrggbb`).regex(/^#[0-9a-fA-F]{6}$/, `${name} must be a colour #rrggbb`);
/** As sent: any case, stored lower case. */
const colour = (name: string) => hexColour(name).transform((c) => c.toLowerCase());
const margin = z
  .number("margin must be a number")
  .int("margin must be a whole number of modules")
  .min(QR_MARGIN_MIN, `margin must be at least ${QR_MARGIN_MIN} modules: scanners need light around the code`)
  .max(QR_MARGIN_MAX, `margin must be ${QR_MARGIN_MAX} modules or less`);
const logoSize = z
  .number("logoSize must be a number")
  .min(QR_LOGO_SIZE_MIN, `logoSize must be at least ${QR_LOGO_SIZE_MIN}`)
  .max(QR_LOGO_SIZE_MAX, `logoSize must be ${QR_LOGO_SIZE_MAX} or less (at most ${QR_MAX_LOGO_SIZE} scans)`);

/** Each field of a style, unchecked against the others. */
const fields = {
  fg: hexColour("fg").describe("Dark modules, #rrggbb"),
  bg: hexColour("bg").describe("Light modules and margin, #rrggbb"),
  shape: z.enum(QR_SHAPES, "shape must be square, rounded or dots"),
  finder: z.enum(QR_FINDERS, "finder must be square, rounded or dot"),
  margin: margin.describe("Light margin in modules"),
  ecc: z.enum(QR_ECC_LEVELS, "ecc must be L, M, Q or H").describe("Error correction; H whenever there is a logo"),
  inverted: z.boolean("inverted must be true or false").describe("Allow fg lighter than bg (light on dark)"),
  logo: z.boolean("logo must be true or false").describe("Draw the account's logo in the middle"),
  logoSize: logoSize.describe("The logo's width as a share of the code's"),
};

/** A style as stored and shown: every field. */
export const QrStyleSchema = z.object(fields).meta({ id: "QrStyle" });

/** Refuses, naming why, a style that would not scan (src/links/qr-drawing.ts unscannable). */
const scannable = (style: QrStyle, ctx: z.RefinementCtx) => {
  const problem = unscannable(style);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
};

/** A style as sent: fields left out take the built-in default's; one that would not scan is a 400 naming why. */
export const QrStyleInput = z
  .strictObject(
    {
      fg: colour("fg").default(DEFAULT_QR_STYLE.fg),
      bg: colour("bg").default(DEFAULT_QR_STYLE.bg),
      shape: fields.shape.default(DEFAULT_QR_STYLE.shape),
      finder: fields.finder.default(DEFAULT_QR_STYLE.finder),
      margin: fields.margin.default(DEFAULT_QR_STYLE.margin),
      ecc: fields.ecc.default(DEFAULT_QR_STYLE.ecc),
      inverted: fields.inverted.default(DEFAULT_QR_STYLE.inverted),
      logo: fields.logo.default(DEFAULT_QR_STYLE.logo),
      logoSize: fields.logoSize.default(DEFAULT_QR_STYLE.logoSize),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `unknown field ${issue.keys.join(", ")}: a QR style has ${Object.keys(fields).join(", ")}`
          : 'a QR style is an object like {"fg": "#000000", "shape": "dots"}',
    },
  )
  .superRefine(scannable);

const flag = (name: string) =>
  z
    .enum(["0", "1"], `${name} must be 0 or 1`)
    .transform((v) => v === "1")
    .optional();

/** GET /api/links/{id}/qr's style parameters: each one given replaces that field of the link's saved style. */
export const QrStyleQuery = z.object({
  fg: colour("fg").optional(),
  bg: colour("bg").optional(),
  shape: fields.shape.optional(),
  finder: fields.finder.optional(),
  margin: z.coerce.number("margin must be a number").pipe(margin).optional(),
  ecc: fields.ecc.optional(),
  inverted: flag("inverted").describe("1: allow fg lighter than bg"),
  logo: flag("logo").describe("1: draw the account's logo (error correction H), 0: none"),
  logoSize: z.coerce.number("logoSize must be a number").pipe(logoSize).optional(),
});

/** A stored style's JSON as a style; fields added since it was stored take the built-in default's. */
export function parseQrStyle(text: string | null): QrStyle | null {
  return text === null ? null : { ...DEFAULT_QR_STYLE, ...(JSON.parse(text) as Partial<QrStyle>) };
}

/** GET/PUT /api/qr-style's answer: the account's default style, and its logo's size in pixels (null: none). */
export const QrDefaultSchema = z
  .object({
    style: QrStyleSchema,
    logo: z
      .object({ width: z.number().int(), height: z.number().int() })
      .nullable()
      .describe("The uploaded logo's size as stored (null: none; POST /api/qr-style/logo)"),
  })
  .meta({ id: "QrDefault" });
