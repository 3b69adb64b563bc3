// The editor's lint warnings, worked out again only when what they judge changes, and only about touched fields.
import { useMemo } from "react";
import type { LintWarning } from "../../../previews/lint.ts";
import { editorWarnings, touchedWarnings, type EditorCard, type LintField } from "./warnings.ts";

export function useEditorWarnings(card: EditorCard, touched: ReadonlySet<LintField>): LintWarning[] {
  const { title, description, image, source, uploaded, xTitle, whatsappDescription } = card;
  return useMemo(
    () => touchedWarnings(editorWarnings(card), touched),
    [
      title,
      description,
      image,
      source?.width,
      source?.height,
      source?.bytes,
      uploaded,
      xTitle,
      whatsappDescription,
      touched,
    ],
  );
}
