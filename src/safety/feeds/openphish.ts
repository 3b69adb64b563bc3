// OpenPhish (and any plain list): one URL per line; each blocks that URL only, never its host.
import { urlEntry } from "../matching.ts";
import { parseLines, type ParsedFeed } from "./parsed.ts";

export const parseUrlList = (text: string): ParsedFeed => parseLines(text, urlEntry);
