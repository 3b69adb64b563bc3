// PhishTank's online-valid.json: an array of `{phish_id, url, phish_detail_url, submission_time, verified, …}`.
// Each url blocks that URL only. A file that is not JSON fails the whole feed (the last good copy stays).
import { urlEntry } from "../matching.ts";
import { withoutBom, type ParsedFeed } from "./parsed.ts";

export function parsePhishtank(text: string): ParsedFeed {
  const rows: unknown = JSON.parse(withoutBom(text));
  if (!Array.isArray(rows)) throw new Error("PhishTank feed: expected a JSON array");
  const parsed: ParsedFeed = { entries: [], skipped: [] };
  rows.forEach((row, index) => {
    const url =
      row && typeof row === "object" && typeof (row as { url?: unknown }).url === "string"
        ? (row as { url: string }).url
        : null;
    const entry = url === null ? null : urlEntry(url);
    if (entry) parsed.entries.push(entry);
    else parsed.skipped.push(`entry ${index + 1}: ${JSON.stringify(row).slice(0, 200)}`);
  });
  return parsed;
}
