// The write of a link change, and what surrounds it: uploads stored for a failed write are removed again, a
// slug taken meanwhile is a 409, and a committed change reaches every link cache.
import type { Change } from "../db/change.ts";
import type { Db } from "../db/ports.ts";
import { conflict } from "../http/errors.ts";
import { SLUG_TAKEN, type LinkDeps } from "./deps.ts";

/**
 * Runs `write` in a transaction; the uploads stored for it (`fresh`, URLs) are removed again if the write fails.
 * Once it has committed, every link cache (other threads and nodes included) drops the short addresses it changed.
 */
export async function writeWithImage<T>(
  deps: LinkDeps,
  fresh: string[],
  write: (tx: Db) => Promise<{ result: T; changed: Change[] }>,
): Promise<T> {
  let written: { result: T; changed: Change[] };
  try {
    written = await deps.database.transaction(write);
  } catch (error) {
    await deps.images.removeAll(fresh);
    if (deps.database.isUniqueViolation(error)) throw conflict(SLUG_TAKEN);
    throw error;
  }
  for (const change of written.changed) await deps.changes.announceChange(change);
  return written.result;
}
