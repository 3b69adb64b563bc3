// The card's title and description: each with its length counter, validation message and lint warnings.
import { DESCRIPTION_MAX, TITLE_MAX } from "../../../links/model.ts";
import type { LintWarning } from "../../../previews/lint.ts";
import { LintList } from "../LintList.tsx";
import { FieldError, inputClass, LimitCounter, type FieldErrors } from "./fields.tsx";
import { warningsAbout, type LintField } from "./warnings.ts";

export function CardTextFields({
  title,
  description,
  onTitle,
  onDescription,
  onLeave,
  errors,
  warnings,
}: {
  title: string;
  description: string;
  onTitle: (title: string) => void;
  onDescription: (description: string) => void;
  /** The user went past a field: its lint may speak now. */
  onLeave: (field: LintField) => void;
  errors: FieldErrors;
  warnings: LintWarning[];
}) {
  const titleInvalid = Boolean(errors.title) || title.length > TITLE_MAX;
  const descriptionInvalid = Boolean(errors.description) || description.length > DESCRIPTION_MAX;
  return (
    <>
      <div>
        <label htmlFor="title" className="block text-sm font-medium">
          Title
        </label>
        <input
          id="title"
          value={title}
          aria-invalid={titleInvalid}
          aria-describedby="title-count title-error title-lint"
          onChange={(e) => onTitle((e.target as HTMLInputElement).value)}
          onBlur={() => onLeave("title")}
          className={inputClass(titleInvalid)}
        />
        <LimitCounter id="title-count" length={title.length} max={TITLE_MAX} />
        <FieldError id="title-error" message={errors.title} />
        <LintList id="title-lint" warnings={warningsAbout(warnings, "title")} className="mt-2" />
      </div>
      <div>
        <label htmlFor="description" className="block text-sm font-medium">
          Description
        </label>
        <textarea
          id="description"
          rows={3}
          value={description}
          aria-invalid={descriptionInvalid}
          aria-describedby="description-count description-error description-lint"
          onChange={(e) => onDescription((e.target as HTMLTextAreaElement).value)}
          onBlur={() => onLeave("description")}
          className={inputClass(descriptionInvalid)}
        />
        <LimitCounter id="description-count" length={description.length} max={DESCRIPTION_MAX} />
        <FieldError id="description-error" message={errors.description} />
        <LintList id="description-lint" warnings={warningsAbout(warnings, "description")} className="mt-2" />
      </div>
    </>
  );
}
