// The link form's rules and messages (SPEC §5), shared by the API and the link-form island.
import { z } from "zod";
import { WITHOUT_NUL } from "../http/text.ts";
import { safeHttpUrl } from "./url.ts";

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
export const SLUG_MAX = 20;
export const URL_MAX = 2048;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

export const isHttpUrl = (value: string) => safeHttpUrl(value) !== null;

/** Form fields arrive as text: an empty or "null" value means "not given". */
const emptyToNull = (value: unknown) => (value === "" || value === "null" || value === "undefined" ? null : value);

export const customLinkSlug = z
  .string()
  .trim()
  .max(SLUG_MAX, "Custom URL must be 20 characters or less")
  .regex(/^[A-Za-z0-9_-]*$/, "Only letters, numbers, underscores and hyphens are allowed");

/** GET /api/links/check-slug-availability?slug= */
export const RequestedSlug = customLinkSlug.min(1, "Custom URL is required");

export const LinkInput = z.object({
  title: z.string("Title is required").trim().min(1, "Title is required").max(TITLE_MAX, "Title must be 60 characters or less").regex(WITHOUT_NUL, "Title contains a character that is not allowed"),
  description: z
    .string("Description is required")
    .trim()
    .min(1, "Description is required")
    .max(DESCRIPTION_MAX, "Description must be 160 characters or less")
    .regex(WITHOUT_NUL, "Description contains a character that is not allowed"),
  targetUrl: z
    .string("Please enter a valid URL")
    .trim()
    .max(URL_MAX, "URL must be 2048 characters or less")
    .refine(isHttpUrl, "Please enter a valid URL"),
  customLinkSlug: z.preprocess(emptyToNull, customLinkSlug.nullish()),
  imageUrl: z.preprocess(emptyToNull, z.string().trim().max(URL_MAX, "Image URL must be 2048 characters or less").regex(WITHOUT_NUL, "Image URL must be a valid http(s) URL").nullish()),
  imageSource: z.preprocess(emptyToNull, z.enum(["upload", "ai"], "Image source must be upload or ai").nullish()),
});

export type LinkInput = z.output<typeof LinkInput>;
