// POST /api/links: a new link, within the plan's quota, with an uploaded, imported or external image.
import { eq, sql } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { Acting } from "../workspaces/acting.ts";
import { AppError, conflict } from "../http/errors.ts";
import { checkCustomSlug, checkExternalImage, checkQuota, checkTarget } from "./checks.ts";
import { shortAddress, SLUG_TAKEN, type LinkDeps } from "./deps.ts";
import { newImageFields, storeUpload, uploadFields } from "./images/new-image.ts";
import { uploadUrlsOf } from "./images/usage.ts";
import { parseImageChange, type LinkInput } from "./model.ts";
import type { PresentedLink } from "./present.ts";
import { linkDomainId } from "./domain.ts";
import { getLinkBySlug, slugInUse } from "./queries.ts";
import { checkLogoUploaded } from "./qr-style.ts";
import { saveLinkQrStyle } from "./qr-style-queries.ts";
import type { LinkQrStyle } from "./qr-style-model.ts";
import { rulesToWrite, saveRules } from "../rules/save.ts";
import { generateSlug } from "./slugs.ts";
import { writeWithImage } from "./write.ts";
import { checkTargetSafety } from "../safety/check-target.ts";
import { carriedDisable } from "../safety/disabled-address.ts";
import { checkCreateLimits } from "../safety/limits.ts";
import { targetDomainOf } from "../safety/matching.ts";
import { recordEvent } from "../webhooks/record-event.ts";
import { linkState } from "../webhooks/link-events.ts";

export async function createLink(
  deps: LinkDeps,
  { user, workspace }: Acting,
  input: LinkInput & LinkQrStyle,
  file: File | null,
): Promise<PresentedLink> {
  const { links, users, workspaces } = tablesOf(deps.database.db);
  await checkQuota(deps.database.db, deps, workspace);
  if (input.customLinkSlug) await checkCustomSlug(deps, workspace, input.customLinkSlug);
  await checkTarget(deps, input.targetUrl);
  const domainId = (await linkDomainId(deps.database.db, workspace.id, input.domain)) ?? null;
  await checkTargetSafety(deps.safety, input.targetUrl);
  const change = parseImageChange(input, file, null);
  if (change.kind === "external") checkExternalImage(change.url);

  const { focal } = change;
  const rules = await rulesToWrite(deps, input, null);
  await checkLogoUploaded(deps.database.db, workspace, input.qrStyle);
  const image = await storeUpload(deps, change);
  const linkSlug = await writeWithImage(deps, image ? uploadUrlsOf(newImageFields(image)) : [], async (tx) => {
    // The workspace's row lock (its quota) and the user's (their new-account limits) first: PostgreSQL runs
    // transactions side by side (READ COMMITTED), so without them concurrent creates each count the same links and
    // all insert. No-op writes; on SQLite the write lock already serialises. Then checked again: other requests ran
    // while the image was processed.
    await tx
      .update(workspaces)
      .set({ name: sql`${workspaces.name}` })
      .where(eq(workspaces.id, workspace.id));
    await tx
      .update(users)
      .set({ updatedAt: sql`${users.updatedAt}` })
      .where(eq(users.id, user.id));
    await checkQuota(tx, deps, workspace);
    await checkCreateLimits(deps.safety, tx, user, input.targetUrl);
    let slug = input.customLinkSlug;
    if (slug && (await slugInUse(tx, workspace.id, slug))) throw conflict(SLUG_TAKEN);
    for (let attempt = 0; !slug && attempt < 10; attempt++) {
      const candidate = generateSlug();
      if (!(await slugInUse(tx, workspace.id, candidate))) slug = candidate;
    }
    if (!slug) throw new AppError(503, "Could not find a free short URL. Please try again.");
    const carried = await carriedDisable(tx, workspace, slug, new Date(deps.clock.now()));
    const { targetUrl } = input;
    const [created] = await tx
      .insert(links)
      .values({
        userId: user.id,
        workspaceId: workspace.id,
        linkSlug: slug,
        targetUrl,
        targetDomain: targetDomainOf(input.targetUrl),
        title: input.title,
        description: input.description,
        imageUrl: image?.url ?? input.imageUrl ?? null,
        imageSource: image ? "upload" : (input.imageSource ?? (input.imageUrl ? "upload" : null)),
        ...uploadFields(image),
        focalX: focal.x,
        focalY: focal.y,
        xTitle: input.variants?.x?.title ?? null,
        whatsappDescription: input.variants?.whatsapp?.description ?? null,
        cardUpdatedAt: new Date(deps.clock.now()),
        domainId,
        // The clock's: the per-host brake (src/safety/limits.ts) counts the last hour by it.
        createdAt: new Date(deps.clock.now()),
        ...carried,
      })
      .returning({ id: links.id });
    if (rules) await saveRules(tx, created!.id, rules);
    if (input.qrStyle) await saveLinkQrStyle(tx, created!.id, input.qrStyle);
    const data = await linkState(tx, deps.publicUrl, workspace, {
      id: created!.id,
      linkSlug: slug,
      targetUrl,
      title: input.title,
      description: input.description,
      domainId,
    });
    await recordEvent(tx, { workspaceId: workspace.id, type: "link.created", data, at: deps.clock.now() });
    // A cache may hold "not found" for this address.
    return { result: slug, changed: [shortAddress(workspace, slug)] };
  });
  return getLinkBySlug(deps, workspace, linkSlug);
}
