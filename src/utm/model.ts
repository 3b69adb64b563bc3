// The UTM builder: campaign tags written into a target URL's query, existing parameters kept. Pure: the editor
// and the CLI use it (src/client/ui/link-form/, cli/).

export const UTM_FIELDS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type UtmTags = Partial<Record<UtmField, string>>;

/** Common starting points; the campaign is the user's. */
export const UTM_PRESETS: ReadonlyArray<{ id: string; label: string; tags: UtmTags }> = [
  { id: "x", label: "X", tags: { utm_source: "x", utm_medium: "social" } },
  { id: "linkedin", label: "LinkedIn", tags: { utm_source: "linkedin", utm_medium: "social" } },
  { id: "facebook", label: "Facebook", tags: { utm_source: "facebook", utm_medium: "social" } },
  { id: "instagram", label: "Instagram", tags: { utm_source: "instagram", utm_medium: "social" } },
  { id: "newsletter", label: "Newsletter", tags: { utm_source: "newsletter", utm_medium: "email" } },
  { id: "qr", label: "Printed QR code", tags: { utm_source: "qr", utm_medium: "print" } },
];

/**
 * `url` with `tags` set in its query: a tag given replaces the same tag already there (other parameters and the
 * fragment are kept, in order); an empty value removes it. Values are encoded by URLSearchParams.
 */
export function mergeUtm(url: string, tags: UtmTags): string {
  const target = new URL(url);
  for (const field of UTM_FIELDS) {
    const value = tags[field];
    if (value === undefined) continue;
    const trimmed = value.trim();
    if (trimmed) target.searchParams.set(field, trimmed);
    else target.searchParams.delete(field);
  }
  return target.href;
}

/** The UTM tags a URL already carries (to fill the builder's fields). */
export function utmOf(url: string): UtmTags {
  if (!URL.canParse(url)) return {};
  const params = new URL(url).searchParams;
  return Object.fromEntries(UTM_FIELDS.flatMap((field) => (params.has(field) ? [[field, params.get(field)!]] : [])));
}
