// What every field of the link editor shares: the input's look and the message under it.
import { LinkInput } from "../../../links/model.ts";

export const inputClass = (invalid: boolean, { attached = false } = {}) =>
  `block w-full border px-3 py-2 text-sm disabled:bg-gray-100 disabled:text-gray-500 ${attached ? "rounded-r-md" : "mt-1 rounded-md"} ${invalid ? "border-red-500" : "border-gray-300"}`;

/**
 * A text with a length limit, judged as it is typed: over it, the field is invalid at once (not only on save) and
 * the counter says by how much.
 */
export function LimitCounter({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length - max;
  return (
    <p id={id} className={`mt-1 text-xs ${over > 0 ? "font-medium text-red-600" : "text-gray-500"}`} data-testid={id}>
      {over > 0 ? `${length}/${max}: ${over} over the limit` : `${length}/${max}`}
    </p>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-600" role="alert">
      {message}
    </p>
  ) : null;
}

/** The editor's fields, as validation messages and lint warnings are placed. */
export type Field =
  | "title"
  | "description"
  | "targetUrl"
  | "customLinkSlug"
  | "image"
  | "xTitle"
  | "whatsappDescription";
export type FieldErrors = Partial<Record<Field, string>>;

/** Where a form-wide validation issue is shown: its top-level field, or the override's own field. */
export const fieldOf = (path: readonly PropertyKey[]): Field =>
  path[0] === "variants" ? (path[1] === "x" ? "xTitle" : "whatsappDescription") : (path[0] as Field);

/** The form's validation messages, the first for each field, or null when LinkInput accepts it. */
export function fieldErrorsOf(input: unknown): FieldErrors | null {
  const parsed = LinkInput.safeParse(input);
  if (parsed.success) return null;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= issue.message;
  return errors;
}
