// PUT /api/links/by-slug/:slug: an edit of a live link; its card (what platforms cache) counts as changed when
// its title, description, image, crop or a platform's text does.
import { and, eq } from "drizzle-orm";
import { tablesOf, type Link } from "../db/tables.ts";
import { conflict, notFound } from "../http/errors.ts";
import { checkCustomSlug, checkExternalImage, checkTarget, requireActive } from "./checks.ts";
import { LINK_NOT_FOUND, shortAddress, SLUG_TAKEN, type LinkDeps } from "./deps.ts";
import { newImageFields, renditionFields, storeUpload, uploadFields } from "./images/new-image.ts";
import { releaseImages, uploadUrlsOf, type UploadUrls } from "./images/usage.ts";
import { parseImageChange, type ImageChange, type LinkInput } from "./model.ts";
import { askFacebookToRescrape } from "./platforms.ts";
import type { PresentedLink } from "./present.ts";
import { linkDomainId } from "./domain.ts";
import { findLiveLink, getLinkBySlug, slugInUse } from "./queries.ts";
import { writeWithImage } from "./write.ts";
import { keepEarlierAddress } from "./old-addresses.ts";
import { checkLogoUploaded } from "./qr-style.ts";
import { saveLinkQrStyle } from "./qr-style-queries.ts";
import type { LinkQrStyle } from "./qr-style-model.ts";
import { rulesToWrite, saveRules } from "../rules/save.ts";
import { checkTargetSafety } from "../safety/check-target.ts";
import { carriedDisable } from "../safety/disabled-address.ts";
import { targetDomainOf } from "../safety/matching.ts";
import { recordEvent } from "../webhooks/record-event.ts";
import { linkState } from "../webhooks/link-events.ts";
import type { Acting } from "../workspaces/acting.ts";

const DISABLED_STAYS = "This link is disabled: it cannot be renamed or moved, its address is the operator's to release";

/**
 * The image fields the edit writes, and the uploads stored for them (removed again if the write fails).
 * `countRecut`: a new focal point decodes the kept source, so it counts against the user's limit like an upload.
 */
async function imageChange(deps: LinkDeps, existing: Link, change: ImageChange, countRecut: () => Promise<void>) {
  const image = await storeUpload(deps, change);
  if (image) {
    const fields = newImageFields(image);
    return { fields, fresh: uploadUrlsOf(fields) };
  }
  if (change.kind === "external")
    return { fields: { imageUrl: change.url, imageSource: change.source, ...uploadFields(null) }, fresh: [] };
  if (change.kind === "remove")
    return { fields: { imageUrl: null, imageSource: null, ...uploadFields(null) }, fresh: [] };
  // Only the focal point moved: new renditions from the kept source, no new upload. A link from before
  // variants has no kept source: it keeps its one image until a new upload.
  if (change.kind !== "refocus" || !existing.imageSourceUrl) return { fields: {}, fresh: [] };
  const focal = change.focal;
  await countRecut();
  const recut = await deps.images.rerender(existing.imageSourceUrl, focal);
  if (!recut) throw conflict("The image's source is missing: upload the image again to move its focal point");
  return { fields: renditionFields(recut), fresh: Object.values(recut.urls) };
}

/** `countRecut`: counts a re-cut for a new focal point against the user's image-work limit (a 429 past it). */
export async function updateLink(
  deps: LinkDeps,
  { user, workspace }: Acting,
  slug: string,
  input: LinkInput & LinkQrStyle,
  file: File | null,
  countRecut: () => Promise<void>,
): Promise<PresentedLink> {
  const { links } = tablesOf(deps.database.db);
  const existing = await findLiveLink(deps.database.db, workspace.id, { slug });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  await requireActive(deps.database.db, deps, workspace);
  const newSlug = input.customLinkSlug ?? existing.linkSlug;
  if (newSlug !== existing.linkSlug) await checkCustomSlug(deps, workspace, newSlug, existing.id);
  await checkTarget(deps, input.targetUrl);
  const domainId = await linkDomainId(deps.database.db, workspace.id, input.domain);
  // Its address keeps the disable (carriedDisable finds it there once deleted): renaming first would free it.
  if (
    existing.status === "disabled" &&
    (newSlug !== existing.linkSlug || (domainId !== undefined && domainId !== existing.domainId))
  )
    throw conflict(DISABLED_STAYS);
  await checkTargetSafety(deps.safety, input.targetUrl);
  const change = parseImageChange(input, file, {
    imageUrl: existing.imageUrl,
    focal: { x: existing.focalX, y: existing.focalY },
  });
  if (change.kind === "external") checkExternalImage(change.url);
  const { focal } = change;
  const rules = await rulesToWrite(deps, input, existing.id);
  await checkLogoUploaded(deps.database.db, workspace, input.qrStyle);
  const { fields: imageFields, fresh } = await imageChange(deps, existing, change, countRecut);
  const xTitle = input.variants?.x ? (input.variants.x.title ?? null) : existing.xTitle;
  const whatsappDescription = input.variants?.whatsapp
    ? (input.variants.whatsapp.description ?? null)
    : existing.whatsappDescription;
  const after: UploadUrls = { ...existing, ...imageFields };
  // A new card (what platforms cache) when its title, description, image, crop or a platform's text changes; the target alone is not one.
  const cardChanged =
    input.title !== existing.title ||
    input.description !== existing.description ||
    after.imageUrl !== existing.imageUrl ||
    xTitle !== existing.xTitle ||
    whatsappDescription !== existing.whatsappDescription;
  const now = new Date(deps.clock.now());
  const { targetUrl } = input;
  await writeWithImage(deps, fresh, async (tx) => {
    if (newSlug !== existing.linkSlug && (await slugInUse(tx, workspace.id, newSlug, existing.id)))
      throw conflict(SLUG_TAKEN);
    const carried = newSlug !== existing.linkSlug ? await carriedDisable(tx, workspace, newSlug, now) : {};
    await tx
      .update(links)
      .set({
        linkSlug: newSlug,
        targetUrl,
        targetDomain: targetDomainOf(input.targetUrl),
        title: input.title,
        description: input.description,
        ...imageFields,
        focalX: focal.x,
        focalY: focal.y,
        xTitle,
        whatsappDescription,
        updatedAt: now,
        updatedByUserId: user.id,
        ...(domainId !== undefined ? { domainId } : {}),
        ...(cardChanged ? { cardUpdatedAt: now } : {}),
        ...carried,
      })
      .where(and(eq(links.id, existing.id), eq(links.workspaceId, workspace.id)));
    if (rules) await saveRules(tx, existing.id, rules);
    if (input.qrStyle !== undefined) await saveLinkQrStyle(tx, existing.id, input.qrStyle);
    const facts = {
      id: existing.id,
      linkSlug: newSlug,
      targetUrl,
      title: input.title,
      description: input.description,
      domainId: domainId === undefined ? existing.domainId : domainId,
    };
    // The address it leaves keeps answering for it (docs/decisions/0047).
    const earlier = await keepEarlierAddress(tx, workspace, existing, newSlug, facts.domainId);
    const data = await linkState(tx, deps.publicUrl, workspace, facts);
    await recordEvent(tx, { workspaceId: existing.workspaceId, type: "link.updated", data, at: now.getTime() });
    return {
      result: undefined,
      changed: [shortAddress(workspace, existing.linkSlug), shortAddress(workspace, newSlug), ...earlier],
    };
  });
  const kept = new Set(uploadUrlsOf(after));
  await releaseImages(
    deps.database.db,
    deps.images,
    uploadUrlsOf(existing).filter((url) => !kept.has(url)),
  );
  const link = await getLinkBySlug(deps, workspace, newSlug);
  if (cardChanged) askFacebookToRescrape(deps, workspace, link.id, link.currentShortUrl);
  return link;
}
