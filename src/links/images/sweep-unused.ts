// The start-up sweep of the uploads (a job of src/compose/server-jobs.ts): removes the stored uploads no live link
// uses, left by a process that died between storing an upload and committing its link, or by a store that would not
// delete at the time.
import type { Db } from "../../db/ports.ts";
import type { Logger } from "../../observability/log.ts";
import type { ImageStore } from "./store.ts";
import { uploadsInUse } from "./usage.ts";

/** Nodes sharing an uploads store keep young unreferenced uploads: another node may be committing their link. */
const SHARED_STORE_GRACE_MS = 3_600_000;

/** `sharedStore`: other nodes write to the same store (PostgreSQL); returns how many uploads it removed. */
export async function sweepUnusedUploads(
  deps: { db: Db; images: ImageStore; log: Logger },
  sharedStore: boolean,
): Promise<number> {
  const removed = await deps.images.sweepOrphans(await uploadsInUse(deps.db), sharedStore ? SHARED_STORE_GRACE_MS : 0);
  if (removed > 0)
    deps.log.info(`Removed ${removed} uploaded image(s) that no link uses (left by an interrupted upload)`);
  return removed;
}
