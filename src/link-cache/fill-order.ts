// The order in which the link cache (link-cache.ts) is filled at start: the links viewed most of all time first,
// as they are the likeliest to be asked for again, then the newest (links never viewed yet, likely just shared).
// The cache stops reading once its share of the budget is full (docs/decisions/0034).
import type { GoLinkRow, GoLinkSource } from "../db/ports.ts";

/** Links read per query. */
const FILL_PAGE = 20_000;

/** Pages of links to fill with: the `mostViewed` most viewed, most first, then every live link, newest first. */
export async function* fillOrder(source: GoLinkSource, mostViewed: number): AsyncGenerator<GoLinkRow[]> {
  const hottest = await source.mostViewedLinkIds(mostViewed);
  for (let i = 0; i < hottest.length; i += FILL_PAGE) {
    const ids = hottest.slice(i, i + FILL_PAGE);
    const rank = new Map(ids.map((id, at) => [id, at]));
    yield (await source.goLinksByIds(ids)).sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  }
  for (let beforeId: number | undefined; ; ) {
    const rows = await source.newestGoLinks(FILL_PAGE, beforeId);
    yield rows;
    if (rows.length < FILL_PAGE) return;
    beforeId = rows[rows.length - 1]!.id;
  }
}
