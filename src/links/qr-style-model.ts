// A QR style as the API, the CLI and the link editor read it (issue 52, decisions 0062 and 0067): the JSON of
// PUT /api/qr-style and a link's `qrStyle`, the query of GET /api/links/{id}/qr, and the scan checks. Pure and
// without the QR library (src/links/qr-drawing.ts draws): the link editor's bundle carries it.
import { z } from "zod";
import { emptyToNull, jsonText } from "./model.ts";

/**
 * How a code is drawn (issue 52, decisions 0062 and 0067): colours, module and finder shapes, margin, error
 * correction; `inverted` asks for light modules on a dark ground; `logo` puts the account's logo in the middle, its
 * width `logoSize` of the code's.
 */
export type QrStyle = {
  fg: string;
  bg: string;
  shape: "square" | "rounded" | "dots";
  finder: "square" | "rounded" | "dot";
  margin: number;
  ecc: "L" | "M" | "Q" | "H";
  inverted: boolean;
  logo: boolean;
  logoSize: number;
};
export const DEFAULT_QR_STYLE: QrStyle = {
  fg: "#000000",
  bg: "#ffffff",
  shape: "square",
  finder: "square",
  margin: 4,
  ecc: "M",
  inverted: false,
  logo: false,
  logoSize: 0.2,
};

/**
 * At most this share of the code's modules may lie under a logo: half of what level H restores (about 30 % of the
 * codewords), the other half left for print and camera damage (0067).
 */
export const QR_MAX_LOGO_COVER = 0.15;
/** The largest logoSize that fits, to two places. */
export const QR_MAX_LOGO_SIZE = Math.floor(Math.sqrt(QR_MAX_LOGO_COVER) * 100) / 100;

/** Dark modules must be at least this many times less luminous than light ones (WCAG contrast ratio; 0062). */
export const QR_MIN_CONTRAST = 3;

/** WCAG 2 relative luminance of `#rrggbb`. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** Why a code in this style would not scan, or undefined when it would. */
export function unscannable(style: QrStyle): string | undefined {
  const fg = relativeLuminance(style.fg);
  const bg = relativeLuminance(style.bg);
  if (fg > bg && !style.inverted)
    return `fg ${style.fg} is lighter than bg ${style.bg}: inverted codes do not scan in many readers, so the dark modules must be the darker colour (or ask for inverted)`;
  const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  if (ratio < QR_MIN_CONTRAST)
    return `fg ${style.fg} on bg ${style.bg} has too little contrast to scan: ${ratio.toFixed(2)}:1, at least ${QR_MIN_CONTRAST}:1 needed`;
  if (style.logo && style.logoSize ** 2 > QR_MAX_LOGO_COVER)
    return `logoSize ${style.logoSize} is too large for error correction H: the logo would cover ${Math.round(style.logoSize ** 2 * 100)}% of the code, at most ${QR_MAX_LOGO_COVER * 100}% scans (logoSize ${QR_MAX_LOGO_SIZE} or less)`;
  return undefined;
}

export const QR_SHAPES = ["square", "rounded", "dots"] as const;
export const QR_FINDERS = ["square", "rounded", "dot"] as const;
export const QR_ECC_LEVELS = ["L", "M", "Q", "H"] as const;
/** Below two modules of margin many scanners miss the finder patterns (the standard asks four). */
export const QR_MARGIN_MIN = 2;
export const QR_MARGIN_MAX = 16;
/** The logo's width as a share of the code's; past QR_MAX_LOGO_SIZE it is refused as too large to scan. */
export const QR_LOGO_SIZE_MIN = 0.1;
export const QR_LOGO_SIZE_MAX = 0.5;
/** The logo sizes the editor offers: small, medium, and the largest that scans (QR_MAX_LOGO_SIZE). */
export const QR_LOGO_SIZES = [
  [0.2, "Small"],
  [0.3, "Medium"],
  [QR_MAX_LOGO_SIZE, "Large"],
] as const;

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

/**
 * A link's own style on its create or update (null, "" or "null": its owner's default; left out on an update:
 * unchanged); a multipart body carries it as a part holding JSON. On the route's body, not in LinkInput, so that the
 * link editor's bundle (which checks LinkInput) stays without it.
 */
export const LinkQrStyleField = z.preprocess(
  (value) => (emptyToNull(value) === null ? null : jsonText(value)),
  QrStyleInput.nullish(),
);
export type LinkQrStyle = { qrStyle?: QrStyle | null };

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

/** GET/PUT /api/qr-style's answer: the workspace's default style, and its logo's size in pixels (null: none). */
export const QrDefaultSchema = z
  .object({
    style: QrStyleSchema,
    logo: z
      .object({ width: z.number().int(), height: z.number().int() })
      .nullable()
      .describe("The uploaded logo's size as stored (null: none; POST /api/qr-style/logo)"),
  })
  .meta({ id: "QrDefault" });
