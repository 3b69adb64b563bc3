// URLhaus CSV dumps (abuse.ch): `id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter`, every
// field quoted, header and notes on lines starting with `#`. The url is the third column; each blocks that URL only.
import { parse } from "csv-parse/sync";
import { urlEntry } from "../matching.ts";
import { withoutBom, type ParsedFeed } from "./parsed.ts";

export function parseUrlhaus(text: string): ParsedFeed {
  const parsed: ParsedFeed = { entries: [], skipped: [] };
  const rows: string[][] = parse(withoutBom(text), {
    comment: "#",
    comment_no_infix: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (error) parsed.skipped.push(`line ${error.lines}: ${error.message}`);
    },
  });
  for (const row of rows) {
    const entry = row.length >= 3 ? urlEntry(row[2]!) : null;
    if (entry) parsed.entries.push(entry);
    else parsed.skipped.push(`row ${JSON.stringify(row.join(",").slice(0, 200))}`);
  }
  return parsed;
}
