// Which link columns hold uploads, and what follows from it. The one place that knows: link edits and deletion,
// account deletion (src/account/deletion.ts) and the start-up sweep of the uploads (sweep-unused.ts) ask here.
import { and, eq, like, or } from "drizzle-orm";
import type { Db } from "../../db/ports.ts";
import { tablesOf, type Link } from "../../db/tables.ts";
import { UPLOADS_PREFIX, type ImageStore } from "./store.ts";

/** An upload is four files (src/links/images/store.ts save()): the wide rendition (imageUrl), the kept source, the square and X renditions. */
export type UploadUrls = Pick<Link, "imageUrl" | "imageSourceUrl" | "imageSquareUrl" | "imageXUrl">;

/** The columns, read at each call: src/db/tables.ts binds the engine's tables at start-up. */
const uploadColumns = (db: Db) => {
  const { links } = tablesOf(db);
  return {
    imageUrl: links.imageUrl,
    imageSourceUrl: links.imageSourceUrl,
    imageSquareUrl: links.imageSquareUrl,
    imageXUrl: links.imageXUrl,
  };
};

/** The upload URLs among a link's image fields (an external image is none). */
export const uploadUrlsOf = (row: UploadUrls): string[] =>
  [row.imageUrl, row.imageSourceUrl, row.imageSquareUrl, row.imageXUrl].filter(
    (url): url is string => url !== null && url.startsWith(UPLOADS_PREFIX),
  );

/** Removes the uploads in `urls` that no live link shows any more. */
export async function releaseImages(db: Db, images: ImageStore, urls: Iterable<string>): Promise<void> {
  const { links } = tablesOf(db);
  for (const url of urls) {
    const stillUsed = await db
      .select({ id: links.id })
      .from(links)
      .where(and(eq(links.deleted, false), or(...Object.values(uploadColumns(db)).map((column) => eq(column, url)))))
      .limit(1);
    if (stillUsed.length === 0) await images.remove(url);
  }
}

/** Every upload a live link uses: what the start-up sweep of the uploads keeps. */
export async function uploadsInUse(db: Db): Promise<string[]> {
  const { links } = tablesOf(db);
  const columns = uploadColumns(db);
  const rows = await db
    .select(columns)
    .from(links)
    .where(
      and(eq(links.deleted, false), or(...Object.values(columns).map((column) => like(column, `${UPLOADS_PREFIX}%`)))),
    );
  return rows.flatMap(uploadUrlsOf);
}

/** Every upload the workspace's links hold, live or deleted, each once. */
export async function uploadsOfWorkspace(db: Db, workspaceId: number): Promise<string[]> {
  const { links } = tablesOf(db);
  const rows = await db.select(uploadColumns(db)).from(links).where(eq(links.workspaceId, workspaceId));
  return [...new Set(rows.flatMap(uploadUrlsOf))];
}
