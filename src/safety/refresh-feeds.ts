// The threat feeds' refresh: at start and every THREAT_FEEDS_EVERY_MS, by one node for the cluster (the job
// "threat-feeds" in src/compose/server-jobs.ts, and threat_feeds.checked_at so that a node that just refreshed is not
// followed by the others). Each feed is read whole and parsed; its entries replace the source's in threat_entries,
// and the live links a new entry covers are disabled in the same transaction. A feed that cannot be read keeps its
// last good copy, and says so in the log and in /metrics.
import { and, eq, inArray } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { SafetyDeps } from "./deps.ts";
import { fillDestinationIndex } from "./destinations.ts";
import { announceDisabled, disableMatching } from "./disable-matching.ts";
import { FEED_FORMATS, type FeedSource } from "./feeds/formats.ts";
import type { ThreatEntry } from "./matching.ts";

/** URLhaus's full dump is tens of MB; a feed larger than this is refused as a mistake. */
const MAX_FEED_BYTES = 256 * 1024 * 1024;
const CHUNK = 500;

async function readFeed(deps: SafetyDeps, feed: FeedSource): Promise<string> {
  if (!/^https?:\/\//i.test(feed.location)) return Bun.file(feed.location).text();
  if (!deps.fetcher) throw new Error("fetching is turned off (FETCH_DISABLED)");
  return deps.fetcher.fetchText(feed.location, MAX_FEED_BYTES);
}

const keyOf = (entry: { kind: string; value: string }) => `${entry.kind} ${entry.value}`;

/** Replaces one source's entries and disables what the new ones cover; how many links it disabled. */
async function store(deps: SafetyDeps, source: string, entries: ThreatEntry[], at: Date): Promise<number> {
  const { threatEntries, threatFeeds } = tablesOf(deps.database.db);
  const unique = new Map(entries.map((entry) => [keyOf(entry), entry]));
  const disabled = await deps.database.transaction(async (tx) => {
    const old = await tx
      .select({ kind: threatEntries.kind, value: threatEntries.value })
      .from(threatEntries)
      .where(eq(threatEntries.source, source));
    const oldKeys = new Set(old.map(keyOf));
    const added = [...unique.values()].filter((entry) => !oldKeys.has(keyOf(entry)));
    const gone = old.filter((entry) => !unique.has(keyOf(entry)));
    for (let i = 0; i < added.length; i += CHUNK)
      await tx
        .insert(threatEntries)
        .values(added.slice(i, i + CHUNK).map((entry) => ({ ...entry, source, addedAt: at })));
    for (const kind of ["url", "host"] as const) {
      const values = gone.filter((entry) => entry.kind === kind).map((entry) => entry.value);
      for (let i = 0; i < values.length; i += CHUNK)
        await tx
          .delete(threatEntries)
          .where(
            and(
              eq(threatEntries.source, source),
              eq(threatEntries.kind, kind),
              inArray(threatEntries.value, values.slice(i, i + CHUNK)),
            ),
          );
    }
    const matched = await disableMatching(tx, deps.publicUrl, source, added, `feed:${source}`, at);
    await tx
      .insert(threatFeeds)
      .values({ source, checkedAt: at, refreshedAt: at, entries: unique.size, error: null })
      .onConflictDoUpdate({
        target: threatFeeds.source,
        set: { checkedAt: at, refreshedAt: at, entries: unique.size, error: null },
      });
    return matched;
  });
  await announceDisabled(deps.changes, disabled);
  return disabled.addresses.length;
}

async function noteFailure(deps: SafetyDeps, source: string, message: string, at: Date): Promise<void> {
  const { threatFeeds } = tablesOf(deps.database.db);
  deps.counts.feedFailures.set(source, (deps.counts.feedFailures.get(source) ?? 0) + 1);
  await deps.database.db
    .insert(threatFeeds)
    .values({ source, checkedAt: at, error: message })
    .onConflictDoUpdate({ target: threatFeeds.source, set: { checkedAt: at, error: message } });
}

async function noteUnchanged(deps: SafetyDeps, source: string, at: Date): Promise<void> {
  const { threatFeeds } = tablesOf(deps.database.db);
  await deps.database.db
    .update(threatFeeds)
    .set({ checkedAt: at, refreshedAt: at, error: null })
    .where(eq(threatFeeds.source, source));
}

export async function refreshFeed(deps: SafetyDeps, feed: FeedSource, log: (line: string) => void): Promise<void> {
  const at = new Date(deps.clock.now());
  const seen = deps.feedTexts;
  let entries: ThreatEntry[];
  let text: string;
  try {
    text = await readFeed(deps, feed);
    if (seen.get(feed.source) === Bun.hash(text)) return noteUnchanged(deps, feed.source, at);
    const parsed = FEED_FORMATS[feed.format](text);
    for (const note of parsed.skipped) log(`threat feed ${feed.source}: skipped ${note}`);
    entries = parsed.entries;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`threat feed ${feed.source} (${feed.location}) could not be read, keeping the last good copy: ${message}`);
    await noteFailure(deps, feed.source, message, at);
    return;
  }
  const disabled = await store(deps, feed.source, entries, at);
  seen.set(feed.source, Bun.hash(text));
  if (disabled > 0) {
    deps.counts.count({ check: false, hit: feed.source, hits: disabled });
    log(`threat feed ${feed.source}: disabled ${disabled} link(s) whose target it lists`);
  }
}

/** Every feed, unless another node refreshed them less than an interval ago (`force`: at start, and in tests). */
export async function refreshFeeds(
  deps: SafetyDeps,
  feeds: FeedSource[],
  everyMs: number,
  log: (line: string) => void,
  force = false,
): Promise<void> {
  const { threatFeeds } = tablesOf(deps.database.db);
  const checked = await deps.database.db
    .select({ at: threatFeeds.checkedAt })
    .from(threatFeeds)
    .where(
      inArray(
        threatFeeds.source,
        feeds.map((feed) => feed.source),
      ),
    );
  const oldest = Math.min(...checked.map((row) => row.at.getTime()));
  if (!force && checked.length === feeds.length && deps.clock.now() - oldest < everyMs * 0.9) return;
  await fillDestinationIndex(deps.database);
  for (const feed of feeds) await refreshFeed(deps, feed, log);
}
