// What the link editor island is given by its page (src/pages/app-pages.ts).
import type { LinkJson } from "../../../links/wire.ts";
import type { SavedRules } from "./rules-draft.ts";

export type LinkFormProps = {
  mode: "create" | "edit";
  /** The link edited, null on create; `currentShortUrl` is the address to share now (the newest version's). */
  link:
    | (Pick<
        LinkJson,
        | "id"
        | "linkSlug"
        | "targetUrl"
        | "title"
        | "description"
        | "imageUrl"
        | "imageSource"
        | "currentShortUrl"
        | "version"
        | "focalX"
        | "focalY"
        | "images"
        | "variants"
        | "domain"
        | "status"
        | "disabledReason"
      > &
        Partial<SavedRules>)
    | null;
  /**
   * The uploaded image's recorded source size (the link JSON's `sourceImage`), so image rules judge it at once,
   * and the kept upright source the focal point is picked on (null for a link from before variants).
   */
  sourceImage: LinkJson["sourceImage"];
  customSlugAllowed: boolean;
  userSlug: string;
  publicUrl: string;
  /** Whether the server may fetch the target page (FETCH_DISABLED hides "Fill from page"). */
  autoFill: boolean;
  /** The owner's custom domains the link may be placed on; `serving`: verified (a pending one serves nothing yet). */
  domains: Array<{ hostname: string; serving: boolean }>;
};
