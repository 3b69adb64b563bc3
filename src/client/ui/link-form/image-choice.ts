// The editor's image: one ImageChange (src/links/model.ts, the choice the server reads back from the form) and
// what the browser knows about the image shown. Every change goes through `imageChoice`, so a new choice drops
// everything the previous one implied (its preview, its measured size, its focal point) in one step.
import { FOCAL_CENTRE, type Focal, type ImageChange } from "../../../links/model.ts";
import type { LintImage } from "../../../previews/lint.ts";

/** The link's saved image, as the editor got it: what keep and refocus keep. */
export type SavedImage = { imageUrl: string | null; imageSource: string | null; focal: Focal };

/** The saved link's image (null on create). */
export const savedImageOf = (
  link: { imageUrl: string | null; imageSource: string | null; focalX: number; focalY: number } | null,
): SavedImage | null =>
  link && { imageUrl: link.imageUrl, imageSource: link.imageSource, focal: { x: link.focalX, y: link.focalY } };

export type ImageChoice = {
  change: ImageChange<File>;
  /** The picked file's object URL, shown until another choice. */
  preview: string | null;
  /** The picked file's (or the recorded upload's) source size; null until a picked file is decoded. */
  source: LintImage | null;
  /** The picker image's natural size, with the image it belongs to (a newer pick may still be loading). */
  natural: { src: string; width: number; height: number } | null;
  /** Auto-fill's offer of the page's image, not yet accepted. */
  suggested: string | null;
};

export type ImageAction =
  | { type: "pick"; file: File; preview: string }
  | { type: "decoded"; preview: string; size: LintImage }
  | { type: "offer"; url: string | null }
  | { type: "accept" }
  | { type: "focus"; focal: Focal }
  | { type: "measured"; src: string; width: number; height: number };

export const initialImageChoice = (saved: SavedImage | null, source: LintImage | null): ImageChoice => ({
  change: { kind: "keep", focal: saved?.focal ?? { ...FOCAL_CENTRE } },
  preview: null,
  source,
  natural: null,
  suggested: null,
});

/** The reducer: `saved` is bound by the editor (useReducer(imageChoiceFor(saved), …)). */
export const imageChoiceFor =
  (saved: SavedImage | null) =>
  (state: ImageChoice, action: ImageAction): ImageChoice => {
    switch (action.type) {
      case "pick":
        return {
          ...state,
          change: { kind: "upload", file: action.file, focal: { ...FOCAL_CENTRE } },
          preview: action.preview,
          source: null,
        };
      case "decoded":
        // Only the latest pick counts: an earlier file may finish decoding after it.
        return state.preview === action.preview ? { ...state, source: action.size } : state;
      case "offer":
        return { ...state, suggested: action.url };
      case "accept":
        if (!state.suggested) return state;
        return {
          ...state,
          change: { kind: "import", url: state.suggested, focal: { ...FOCAL_CENTRE } },
          suggested: null,
          preview: null,
          source: null,
        };
      case "focus": {
        const { change } = state;
        if (change.kind !== "keep" && change.kind !== "refocus")
          return { ...state, change: { ...change, focal: action.focal } };
        const was = saved?.focal ?? FOCAL_CENTRE;
        return {
          ...state,
          change: {
            kind: action.focal.x !== was.x || action.focal.y !== was.y ? "refocus" : "keep",
            focal: action.focal,
          },
        };
      }
      case "measured":
        return { ...state, natural: { src: action.src, width: action.width, height: action.height } };
    }
  };

/** What the editor shows and judges for the current choice. */
export function shownImage(state: ImageChoice, saved: SavedImage | null, keptSourceUrl: string | null) {
  const { change } = state;
  const kept = change.kind === "keep" || change.kind === "refocus";
  const importUrl = change.kind === "import" ? change.url : null;
  const imageUrl = kept ? (saved?.imageUrl ?? null) : null;
  // The image the focal point is picked on: a picked file, an accepted page image, or the saved upload's source.
  const pickSource = state.preview ?? importUrl ?? (imageUrl && saved?.imageSource === "upload" ? keptSourceUrl : null);
  const size = state.natural && state.natural.src === pickSource ? state.natural : null;
  // An imported image is judged by its size once shown (its bytes are LinkPrev's to re-encode, as an upload's).
  const lintSource = state.source ?? (importUrl && size ? { width: size.width, height: size.height, bytes: 0 } : null);
  return {
    importUrl,
    pickSource,
    size,
    lintSource,
    /** The saved image's address while kept (the mockups draw its renditions). */
    imageUrl,
    /** The image the card will carry, as the lint sees it. */
    image: state.preview ?? importUrl ?? imageUrl,
    /** Served as LinkPrev's own re-encoded JPEG, so its source bytes are not what crawlers get. */
    uploaded: change.kind === "upload" || change.kind === "import" || saved?.imageSource === "upload",
  };
}
