// POST /api/links/lint: the preview lint's warnings for a link not yet saved.
import { lintPreview, type LintInput } from "../previews/lint.ts";
import { checkExternalImage, checkTarget } from "./checks.ts";
import type { LinkDeps } from "./deps.ts";
import type { PreparedImage } from "./images/store.ts";
import { FOCAL_CENTRE, type LinkInput } from "./model.ts";

/**
 * POST /api/links/lint: the warnings a create with these fields would carry. Checked as a create is; an uploaded
 * image is decoded and measured like one, but nothing is stored.
 */
export async function lintLink(
  deps: LinkDeps,
  input: LinkInput,
  file: File | null,
): Promise<{ warnings: ReturnType<typeof lintPreview> }> {
  checkTarget(deps, input.targetUrl);
  if (!file && input.imageUrl) checkExternalImage(input.imageUrl);
  const prepared: PreparedImage | null = file
    ? await deps.images.prepare(file, { x: input.focalX ?? FOCAL_CENTRE.x, y: input.focalY ?? FOCAL_CENTRE.y })
    : null;
  const card: LintInput = {
    title: input.title,
    description: input.description,
    imageUrl: prepared ? null : (input.imageUrl ?? null),
    image: prepared ? { ...prepared.source, servedBytes: prepared.renditions.wide.byteLength } : null,
  };
  return { warnings: lintPreview(card) };
}
