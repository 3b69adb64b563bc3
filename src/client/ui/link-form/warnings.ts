// The preview lint (src/previews/lint.ts) as the link editor shows it: run as the user types or picks an image,
// each warning beside the field it is about.
import { lintPreview, type LintImage, type LintWarning, type RuleId } from "../../../previews/lint.ts";

/** Which field each lint rule is about, to show its warning there. */
const RULE_FIELD: Record<RuleId, "title" | "description" | "image"> = {
  "x-title-cut": "title",
  "discord-title-bytes": "title",
  "discord-description-bytes": "description",
  "whatsapp-description-long": "description",
  "title-equals-description": "description",
  "no-image": "image",
  "image-below-minimum": "image",
  "image-too-small": "image",
  "image-upscaled": "image",
  "image-heavy-crop": "image",
  "whatsapp-image-too-heavy": "image",
  "whatsapp-image-heavy": "image",
};

/**
 * Rules on the size of the file crawlers get. An upload is served as LinkPrev's own re-encoded JPEG, measured when
 * it is saved (the link's `warnings`), so the editor does not judge an upload's source bytes by them.
 */
const SERVED_FILE_RULES: ReadonlySet<string> = new Set<RuleId>(["whatsapp-image-too-heavy", "whatsapp-image-heavy"]);

export type EditorCard = {
  title: string;
  description: string;
  image: string | null;
  source: LintImage | null;
  /** Served as LinkPrev's own JPEG (an upload or an import). */
  uploaded: boolean;
  xTitle: string;
  whatsappDescription: string;
};

export function editorWarnings(card: EditorCard): LintWarning[] {
  // A platform given its own (valid, so short enough) text no longer cuts the link's.
  const overridden = (rule: string) =>
    (rule === "x-title-cut" && card.xTitle.trim() !== "") ||
    (rule === "whatsapp-description-long" && card.whatsappDescription.trim() !== "");
  return lintPreview({
    title: card.title,
    description: card.description,
    imageUrl: card.image,
    image: card.source,
  }).filter((w) => !(card.uploaded && SERVED_FILE_RULES.has(w.rule)) && !overridden(w.rule));
}

export type LintField = "title" | "description" | "image";

/** Only the warnings about fields the user has touched (typed in, left, or chosen an image for): none on a blank form. */
export const touchedWarnings = (warnings: LintWarning[], touched: ReadonlySet<LintField>): LintWarning[] =>
  warnings.filter((w) => touched.has(RULE_FIELD[w.rule as RuleId]));

export const warningsAbout = (warnings: LintWarning[], field: "title" | "description" | "image"): LintWarning[] =>
  warnings.filter((w) => RULE_FIELD[w.rule as RuleId] === field);
