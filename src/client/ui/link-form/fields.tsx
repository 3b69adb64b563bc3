// What every field of the link editor shares: the input's look and the message under it.
export const inputClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-sm disabled:bg-gray-100 disabled:text-gray-500 ${invalid ? "border-red-500" : "border-gray-300"}`;

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-600" role="alert">
      {message}
    </p>
  ) : null;
}

/** The editor's fields, as validation messages and lint warnings are placed. */
export type Field = "title" | "description" | "targetUrl" | "customLinkSlug" | "image" | "xTitle" | "whatsappDescription";
export type FieldErrors = Partial<Record<Field, string>>;

/** Where a form-wide validation issue is shown: its top-level field, or the override's own field. */
export const fieldOf = (path: readonly PropertyKey[]): Field =>
  path[0] === "variants" ? (path[1] === "x" ? "xTitle" : "whatsappDescription") : (path[0] as Field);
