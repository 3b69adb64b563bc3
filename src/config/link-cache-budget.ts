// The /go link cache's memory budget (LINK_CACHE_MB), or its default: a share of the machine's memory.
import { totalmem } from "node:os";

const MB = 1024 * 1024;
/** What LINK_CACHE_SIZE (a number of links, deprecated) is read as: a link with a rendered card or two. */
const BYTES_PER_LINK = 2048;

export type LinkCacheBudget = {
  bytes: number;
  /** How it was chosen, for the start-up line. */
  source: string;
  /** A line to print at start when a deprecated setting was used. */
  deprecation: string | null;
};

export function linkCacheBudget(
  megabytes: number | undefined,
  legacyLinks: number | undefined,
  machineBytes = totalmem(),
): LinkCacheBudget {
  if (megabytes !== undefined) {
    const deprecation =
      legacyLinks !== undefined ? "LINK_CACHE_SIZE is deprecated and ignored: LINK_CACHE_MB is set" : null;
    return { bytes: megabytes * MB, source: "LINK_CACHE_MB", deprecation };
  }
  if (legacyLinks !== undefined) {
    const bytes = Math.max(MB, legacyLinks * BYTES_PER_LINK);
    return {
      bytes,
      source: `LINK_CACHE_SIZE=${legacyLinks}`,
      deprecation: `LINK_CACHE_SIZE is deprecated: read as LINK_CACHE_MB=${Math.round(bytes / MB)} (2 KB a link); set LINK_CACHE_MB instead`,
    };
  }
  const bytes = Math.round(Math.min(1024 * MB, Math.max(32 * MB, machineBytes / 16)) / MB) * MB;
  return { bytes, source: "default: a sixteenth of this machine's memory, 32 MB to 1 GB", deprecation: null };
}
