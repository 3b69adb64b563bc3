// Pages of rows newest first by id, as routes of several folders answer them (a workspace's audit log, a link's crawler
// fetches): the cursor is the id of the last row shown, and a page reads one row more to know whether another follows.
// Pure zod: the wire files that name it are shared with the browser.
import { z } from "zod";

/** `?limit=` (1 to 100, `defaultLimit` when left out) and `?cursor=` (a nextCursor the same route gave). */
export const idPageQuery = (defaultLimit: number) =>
  z.object({
    limit: z.coerce
      .number("limit must be a number")
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(100, "limit must be 100 or less")
      .default(defaultLimit),
    cursor: z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, "cursor must be a nextCursor this route gave")
      .optional(),
  });

/** The first `limit` of `rows` (read with a limit of `limit + 1`) and the cursor of the next page, null at the end. */
export function idPage<R extends { id: number }, T>(rows: R[], limit: number, present: (row: R) => T) {
  const items = rows.slice(0, limit);
  return { items: items.map(present), nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}
