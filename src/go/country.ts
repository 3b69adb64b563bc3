// The country of a client address, for country rules, from an offline database shipped as an npm package
// (@ip-location-db/geo-whois-asn-country-mmdb, read with mmdb-lib): no request leaves the server. Loaded on the
// first country rule only, and the answer never leaves memory (no column, no log line: docs/privacy.md).
import { readFileSync } from "node:fs";
import { Reader, type Response } from "mmdb-lib";
import { boundedMemo } from "../bounded-memo.ts";

/** What this database holds per range (not one of MaxMind's own record shapes). */
type CountryRecord = { country_code?: string };

/** Addresses remembered: the same visitors come back, and a lookup walks a tree of ~8 MB. */
const MEMO_LIMIT = 10_000;

export type CountryOf = (address: string) => string | null;

/** Opens the packaged database (once, on first use); a lookup is then synchronous. */
export function createCountryLookup(
  path = Bun.resolveSync("@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb", import.meta.dir),
): CountryOf {
  let reader: Reader<Response> | null = null;
  return boundedMemo(MEMO_LIMIT, (address) => {
    reader ??= new Reader<Response>(readFileSync(path));
    try {
      return (reader.get(address) as CountryRecord | null)?.country_code ?? null;
    } catch {
      // Not an address the database reads (a unix socket's, say): no country.
      return null;
    }
  });
}
