// links list: a table of the signed-in user's links (live or deleted), searched, sorted and capped.
import type { Command } from "commander";
import { nextPage, ok, type LinkPrevClient, type Schemas } from "../../packages/sdk/src/index.ts";
import { healthText, statusText } from "./rule-options.ts";
import { api, usageError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

export function registerLinkListCommand(links: Command): void {
  links
    .command("list")
    .description("List your links")
    .option("--deleted", "list deleted links instead")
    .option("--search <words>", "only links whose title, slug or target holds these words")
    .option("--sort <order>", "newest (the default) or views (most viewed first)")
    .option("--limit <n>", "at most this many links", (text) => {
      if (!/^\d+$/.test(text) || Number(text) < 1)
        throw usageError(`--limit must be a whole number of links, 1 or more; got "${text}"`);
      return Number(text);
    })
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links list --search sale --sort views --limit 10"))
    .action(async (options: { deleted?: boolean; search?: string; sort?: string; limit?: number; json?: boolean }) => {
      if (options.sort !== undefined && options.sort !== "newest" && options.sort !== "views")
        throw usageError(`--sort must be newest or views; got "${options.sort}"`);
      const paged = options.search !== undefined || options.sort !== undefined || options.limit !== undefined;
      if (options.deleted && paged)
        throw usageError("--search, --sort and --limit list live links; leave out --deleted");
      const query = {
        limit: Math.min(options.limit ?? 200, 200),
        sort: options.sort as "newest" | "views" | undefined,
        ...(options.search ? { q: options.search } : {}),
      };
      const list = await api(loadSettings(), (client) =>
        paged
          ? pages(client, { ...query, sort: query.sort ?? "newest" }, options.limit)
          : ok(client.GET(options.deleted ? "/api/links/deleted" : "/api/links")),
      );
      if (options.json) return void json(list);
      if (list.length === 0)
        return void out(
          options.deleted
            ? "No deleted links"
            : options.search
              ? `No link matches "${options.search}"`
              : "No links yet: linkprev links create --help",
        );
      const day = (at: string | Date) => new Date(at).toISOString().slice(0, 10);
      const title = (l: Schemas["Link"]) => (l.title.length > 40 ? `${l.title.slice(0, 39)}…` : l.title);
      // A deleted link's own status (active or disabled) no longer applies: it is deleted, since that day.
      if (options.deleted)
        return void out(
          table([
            ["SLUG", "SHORT URL", "TITLE", "STATUS", "DELETED", "CREATED"],
            ...list.map((l) => [
              l.linkSlug,
              l.currentShortUrl,
              title(l),
              "deleted",
              l.deletedAt ? day(l.deletedAt) : "-",
              day(l.createdAt),
            ]),
          ]),
        );
      out(
        table([
          ["SLUG", "SHORT URL", "TITLE", "STATUS", "HUMAN", "BOT", "VISITORS", "SCANS", "CREATED"],
          ...list.map((l) => [
            l.linkSlug,
            l.currentShortUrl,
            title(l),
            statusText(l, Date.now()),
            String(l.viewsHuman),
            String(l.viewsBot),
            String(l.uniqueHumans),
            String(l.scans),
            day(l.createdAt),
          ]),
        ]),
      );
      // A broken target is worth a line of its own: the table stays the same shape for scripts.
      for (const l of list.filter((link) => link.health.status === "broken"))
        process.stderr.write(`${l.linkSlug}: target ${healthText(l)}\n`);
    });
}

type ListQuery = { limit: number; sort: "newest" | "views"; q?: string; cursor?: string };

/**
 * A paged list: follows the answers' `Link: <…>; rel="next"` headers until `max` items (all when undefined) or the
 * last page. Only the next page's query is taken: the server names itself by PUBLIC_URL, the client by the address
 * it was given.
 */
async function pages(client: LinkPrevClient, first: ListQuery, max?: number): Promise<Schemas["Link"][]> {
  const items: Schemas["Link"][] = [];
  let query: ListQuery | null = first;
  while (query && (max === undefined || items.length < max)) {
    const { data, response } = await client.GET("/api/links", { params: { query } });
    items.push(...(data ?? []));
    const next = nextPage(response);
    query = next ? (Object.fromEntries(next.searchParams) as unknown as ListQuery) : null;
  }
  return max === undefined ? items : items.slice(0, max);
}
