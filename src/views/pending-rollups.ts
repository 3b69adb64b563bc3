// The SQLite view writer's counts that are stored as rows but not yet folded into the rollups
// (views/view-store.ts folds them every few seconds: docs/decisions/0001).
import { VERIFICATION } from "./crawler-verification.ts";
import type { LinkIds } from "./link-id-bits.ts";

/** Platform codes stay below this (the classifier names a few dozen platforms at most). */
const PLATFORM_SLOTS = 64;

/**
 * A pending count and its newest view's time (the rollup's last_at: when that platform last fetched), for
 * crawlers their verification counts; for
 * people, also how many came through the QR code, how many were the day's first view of a visitor, and how many
 * came from each referrer bucket (views/referrer-counts.ts): the first bucket inline, since a link's people of a
 * few seconds mostly share one, any others in `moreHosts`.
 */
export type Cell = {
  n: number;
  at: number;
  /** Crawlers' cells: their views by verification by network (views/crawler-verification.ts). */
  verified: number;
  unverified: number;
  unverifiable: number;
  scans: number;
  uniques: number;
  host: string;
  hostViews: number;
  moreHosts: Map<string, number> | null;
};

/** One rollup row's additions, as `fold` hands them over, with its people by referrer bucket (as in Cell). */
export type RollupAddition = Omit<Cell, "n"> & { linkId: number; platform: string; human: number; bot: number };

/** Counts a crawler's view of `cell` under its verification (views/crawler-verification.ts's code; 0: none). */
export function countVerification(
  cell: { verified: number; unverified: number; unverifiable: number },
  code: number,
): void {
  const verification = VERIFICATION[code];
  if (verification) cell[verification]++;
}

/** Counts a person's view of `cell` under referrer bucket `host`. */
export function countReferrer(cell: Cell, host: string): void {
  if (cell.hostViews === 0 || cell.host === host) {
    cell.host = host;
    cell.hostViews++;
  } else {
    const more = (cell.moreHosts ??= new Map());
    more.set(host, (more.get(host) ?? 0) + 1);
  }
}

/**
 * View counts by day (days since 1970), then by one number per link, platform and kind:
 * `(linkId * 64 + platform code) * 2 + isBot`, so that sorting the keys sorts by link. Flat number keys with
 * a mutable cell are several times cheaper to count into than nested maps, and this runs for every view.
 */
export class PendingRollups {
  private days = new Map<number, Map<number, Cell>>();
  /** Platform names by code, '' (people) first. */
  private readonly platforms = [""];
  private readonly platformCodes = new Map([["", 0]]);

  get empty(): boolean {
    return this.days.size === 0;
  }

  clear(): void {
    this.days = new Map();
  }

  /** The code of a platform name ('' for people), given on first sight. */
  platformCode(name: string): number {
    let code = this.platformCodes.get(name);
    if (code === undefined) {
      if (this.platforms.length === PLATFORM_SLOTS) throw new Error(`more than ${PLATFORM_SLOTS} crawler platforms`);
      this.platformCodes.set(name, (code = this.platforms.push(name) - 1));
    }
    return code;
  }

  /** Counts one view; the cell returned takes a person's scan and first-visit counts. */
  count(day: number, linkId: number, platformCode: number, isBot: number, at: number): Cell {
    const key = (linkId * PLATFORM_SLOTS + platformCode) * 2 + isBot;
    let byKey = this.days.get(day);
    if (!byKey) this.days.set(day, (byKey = new Map()));
    let cell = byKey.get(key);
    if (cell) {
      cell.n++;
      if (at > cell.at) cell.at = at;
    } else
      byKey.set(
        key,
        (cell = {
          n: 1,
          at,
          verified: 0,
          unverified: 0,
          unverifiable: 0,
          scans: 0,
          uniques: 0,
          host: "",
          hostViews: 0,
          moreHosts: null,
        }),
      );
    return cell;
  }

  /**
   * Hands over each day's counts in link order (fewer page jumps): in practice one row per link and platform,
   * since people have no platform and crawlers always one. A link deleted with its owner since its views were
   * stored has no rollups to keep: `liveOf` tells which of a day's links still exist.
   */
  fold(liveOf: (linkIds: number[]) => LinkIds, add: (day: number, row: RollupAddition) => void): void {
    const linkOf = (key: number) => Math.floor(key / (2 * PLATFORM_SLOTS));
    for (const [day, byKey] of this.days) {
      const keys = [...byKey.keys()].sort((x, y) => x - y);
      const live = liveOf(keys.map(linkOf));
      for (const key of keys) {
        if (!live.has(linkOf(key))) continue;
        const isBot = key % 2;
        const { n, ...cell } = byKey.get(key)!;
        const platform = this.platforms[((key - isBot) / 2) % PLATFORM_SLOTS]!;
        add(day, { ...cell, linkId: linkOf(key), platform, human: isBot ? 0 : n, bot: isBot ? n : 0 });
      }
    }
  }
}
