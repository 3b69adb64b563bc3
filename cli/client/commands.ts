// The client commands: login, logout, whoami and links …, over the same HTTP API as the web app (a link's card
// and audience in card-commands.ts, import, export and account deletion in data-commands.ts).
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline/promises";
import type { UserJson } from "../../src/auth/wire.ts";
import type { LinkJson, PageMetadataJson } from "../../src/links/wire.ts";
import { registerCardCommands } from "./card-commands.ts";
import { registerDataCommands } from "./data-commands.ts";
import {
  addRuleOptions,
  addRules,
  healthText,
  ruleLines,
  statusText,
  withUtm,
  type RuleOptions,
} from "./rule-options.ts";
import { registerDomainCommands } from "./domain-commands.ts";
import { registerWebhookCommands } from "./webhook-commands.ts";
import { call, callPages, CliError, usageError } from "./http.ts";
import { example, json, out, platformLabel, table } from "./output.ts";
import { forgetSettings, loadSettings, saveSettings } from "./settings.ts";

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

const imageMime: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** The per-platform options of links create/edit. */
type VariantOptions = { focal?: string; xTitle?: string; whatsappDescription?: string };

/** --focal "x,y": two numbers from 0 to 1 (left/top to right/bottom of the image). */
function focalPoint(text: string): { x: number; y: number } {
  const parts = text.split(",").map((part) => part.trim());
  const [x, y] = parts.map(Number);
  const valid = (n: number | undefined) => n !== undefined && Number.isFinite(n) && n >= 0 && n <= 1;
  if (parts.length !== 2 || parts.some((part) => part === "") || !valid(x) || !valid(y)) {
    throw usageError(`--focal must be two numbers from 0 to 1, x,y (0,0 is the top left), like 0.3,0.5; got "${text}"`);
  }
  return { x: x!, y: y! };
}

/** Adds --focal, --x-title and --whatsapp-description to a link form (the server checks the texts' lengths); an empty text removes an override. */
function addVariants(form: FormData, options: VariantOptions): FormData {
  if (options.focal !== undefined) {
    const { x, y } = focalPoint(options.focal);
    form.append("focalX", String(x));
    form.append("focalY", String(y));
  }
  const variants = {
    ...(options.xTitle !== undefined ? { x: { title: options.xTitle } } : {}),
    ...(options.whatsappDescription !== undefined ? { whatsapp: { description: options.whatsappDescription } } : {}),
  };
  if (Object.keys(variants).length > 0) form.append("variants", JSON.stringify(variants));
  return form;
}

function linkForm(fields: {
  target: string;
  title: string;
  description: string;
  slug?: string;
  domain?: string;
  image?: string;
  imageUrl?: string | null;
  imageImportUrl?: string;
}): FormData {
  const form = new FormData();
  if (fields.imageImportUrl) form.append("imageImportUrl", fields.imageImportUrl);
  form.append("targetUrl", fields.target);
  form.append("title", fields.title);
  form.append("description", fields.description);
  if (fields.slug) form.append("customLinkSlug", fields.slug);
  if (fields.domain) form.append("domain", fields.domain);
  if (fields.imageUrl !== undefined) form.append("imageUrl", fields.imageUrl ?? "");
  if (fields.image) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(fields.image));
    } catch {
      throw usageError(`Cannot read image file ${fields.image}`);
    }
    const extension = fields.image.split(".").pop()?.toLowerCase() ?? "";
    form.append(
      "image",
      new File([bytes], basename(fields.image), { type: imageMime[extension] ?? "application/octet-stream" }),
    );
  }
  return form;
}

export function registerClientCommands(program: Command): void {
  program
    .command("login")
    .description("Store the server and API token to use (checked against the server first)")
    .option("--server <url>", "the LinkPrev server, e.g. https://links.example.com")
    .option("--token <token>", "an API token (from the dashboard, or `linkprev admin token create`)")
    .addHelpText("after", example("linkprev login --server https://links.example.com --token lp_xxxxxxxx"))
    .action(async (options: { server?: string; token?: string }) => {
      const current = loadSettings();
      const server = options.server ?? current.server ?? (process.stdin.isTTY ? await ask("Server URL: ") : undefined);
      const token = options.token ?? (process.stdin.isTTY ? await ask("API token: ") : undefined);
      if (!server || !token) throw usageError("Both --server and --token are needed");
      if (!URL.canParse(server)) throw usageError(`Not a URL: ${server}`);
      const me = await call<UserJson>({ server, token }, "/api/auth/user").catch((error: unknown) => {
        if (error instanceof CliError && error.status === 401) {
          throw new CliError(
            `${server} refused the token (HTTP 401): check that it was copied whole, or create a new one (dashboard, API tokens; or linkprev admin token create). Nothing was stored.`,
            1,
            401,
          );
        }
        throw error;
      });
      const path = saveSettings({ server: server.replace(/\/+$/, ""), token });
      out(`Logged in to ${server} as ${me.email} (settings in ${path})`);
    });

  program
    .command("logout")
    .description("Forget the stored server and token")
    .addHelpText("after", example("linkprev logout"))
    .action(() => void out(forgetSettings() ? "Logged out" : "Not logged in"));

  program
    .command("whoami")
    .description("Show who the stored token signs in as")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev whoami"))
    .action(async (options: { json?: boolean }) => {
      const me = await call<UserJson>(loadSettings(), "/api/auth/user");
      if (options.json) json(me);
      else out(`${me.email} (short URLs under /go/${me.userSlug}/) on ${loadSettings().server}`);
    });

  const links = program
    .command("links")
    .description("Create, list, show, edit and delete links")
    .addHelpText("after", example("linkprev links list"));

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
      const query = new URLSearchParams({
        limit: String(Math.min(options.limit ?? 200, 200)),
        sort: options.sort ?? "newest",
        ...(options.search ? { q: options.search } : {}),
      });
      const settings = loadSettings();
      const list = paged
        ? await callPages<LinkJson>(settings, `/api/links?${query}`, options.limit)
        : await call<LinkJson[]>(settings, options.deleted ? "/api/links/deleted" : "/api/links");
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
      const title = (l: LinkJson) => (l.title.length > 40 ? `${l.title.slice(0, 39)}…` : l.title);
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

  addRuleOptions(
    links
      .command("create")
      .description("Create a link; prints its short URL")
      .requiredOption("--target <url>", "where people are sent")
      .option("--title <title>", "the preview's title (≤ 60; required unless --fill finds one)")
      .option("--description <text>", "the preview's description (≤ 160; required unless --fill finds one)")
      .option("--slug <slug>", "a custom short URL slug (pro and enterprise)")
      .option(
        "--domain <hostname>",
        "serve it on one of your custom domains (linkprev domains list) as https://hostname/slug",
      )
      .option(
        "--image <file>",
        "a JPG, PNG or WebP image (≤ 5 MB), cropped to 1200×630, 1200×1200 and 1200×600 for each platform",
      )
      .option(
        "--focal <x,y>",
        "the point of the image every crop keeps near its centre, 0..1 from the top left (default 0.5,0.5)",
      )
      .option("--x-title <text>", "a shorter title for X only (≤ 50)")
      .option("--whatsapp-description <text>", "a shorter description for WhatsApp only (≤ 80)")
      .option(
        "--fill",
        "take a missing title, description and image from the target page (what was filled goes to stderr)",
      )
      .option("--json", "print the created link as JSON")
      .addHelpText(
        "after",
        example(
          `url=$(linkprev links create --target https://example.com/post --title "My post" --description "Read it" --image cover.png)\n  linkprev links create --target https://example.com/post --fill\n  linkprev links create --target https://example.com/app --title App --description Get it --rule device:ios=https://apps.apple.com/app/id1 --utm-preset newsletter --utm-campaign launch`,
        ),
      ),
  ).action(
    async (
      options: {
        target: string;
        title?: string;
        description?: string;
        slug?: string;
        domain?: string;
        image?: string;
        fill?: boolean;
        json?: boolean;
      } & VariantOptions &
        RuleOptions,
    ) => {
      let { title, description } = options;
      let imageImportUrl: string | undefined;
      if (options.fill && (!title || !description || !options.image)) {
        const found = await call<PageMetadataJson>(loadSettings(), "/api/links/metadata", {
          method: "POST",
          json: { url: options.target },
        });
        const filled: string[] = [];
        if (!title && found.title) filled.push(`title        ${(title = found.title)}`);
        if (!description && found.description) filled.push(`description  ${(description = found.description)}`);
        if (!options.image && found.imageUrl)
          filled.push(`image        ${(imageImportUrl = found.imageUrl)} (imported)`);
        process.stderr.write(
          filled.length
            ? `Filled from the target page:\n  ${filled.join("\n  ")}\n`
            : "The target page had nothing to fill\n",
        );
      }
      if (!title)
        throw usageError(
          options.fill
            ? "The target page has no title: give --title"
            : "--title is required (or --fill to take it from the target page)",
        );
      if (!description)
        throw usageError(
          options.fill
            ? "The target page has no description: give --description"
            : "--description is required (or --fill to take it from the target page)",
        );
      const form = linkForm({
        ...options,
        target: withUtm(options.target, options),
        title,
        description,
        imageImportUrl,
      });
      const link = await call<LinkJson>(loadSettings(), "/api/links", {
        method: "POST",
        form: addRules(addVariants(form, options), options),
      });
      if (options.json) return void json(link);
      out(process.stdout.isTTY ? `Created ${link.shortUrl}` : link.shortUrl);
      // On stderr, so a script that keeps stdout's short URL still gets only the URL.
      if (link.warnings.length > 0)
        process.stderr.write(
          `Preview warnings:\n${link.warnings.map((w) => `  ${w.severity.padEnd(7)} ${w.message} (${w.platforms.map(platformLabel).join(", ")})`).join("\n")}\n`,
        );
    },
  );

  /** Reads (or, with `init`, updates) the signed-in user's link by its slug. */
  const bySlug = (slug: string, init?: Parameters<typeof call>[2]) =>
    call<LinkJson>(loadSettings(), `/api/links/by-slug/${encodeURIComponent(slug)}`, init);

  links
    .command("show")
    .description("Show one link")
    .argument("<slug>", "the link's slug")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links show spring-sale"))
    .action(async (slug: string, options: { json?: boolean }) => {
      const link = await bySlug(slug);
      if (options.json) return void json(link);
      out(
        [
          `Short URL    ${link.currentShortUrl}${link.version > 1 ? ` (version ${link.version} of ${link.shortUrl})` : ""}`,
          `Target       ${link.targetUrl}`,
          `Status       ${statusText(link, Date.now())}${link.disabledReason ? ` (${link.disabledReason})` : ""}`,
          `Title        ${link.title}`,
          `Description  ${link.description}`,
          `Image        ${link.imageUrl ?? "-"}`,
          ...(link.images.square !== link.imageUrl
            ? [`Square       ${link.images.square}`, `X image      ${link.images.x}`]
            : []),
          ...(link.imageUrl ? [`Focal point  ${link.focalX},${link.focalY}`] : []),
          ...(link.variants.x.title ? [`X title      ${link.variants.x.title}`] : []),
          ...(link.variants.whatsapp.description ? [`WhatsApp     ${link.variants.whatsapp.description}`] : []),
          `Views        ${link.viewsHuman} human, ${link.viewsBot} bot`,
          `Visitors     ${link.uniqueHumans} (daily unique visitors, summed)`,
          `QR scans     ${link.scans}`,
          `Created      ${new Date(link.createdAt).toISOString()}`,
          ...ruleLines(link),
        ].join("\n"),
      );
    });

  addRuleOptions(
    links
      .command("edit")
      .alias("update")
      .description("Change a link; options not given keep their value")
      .argument("<slug>", "the link's slug")
      .option("--target <url>", "where people are sent")
      .option("--title <title>", "the preview's title")
      .option("--description <text>", "the preview's description")
      .option("--slug <slug>", "a new custom slug")
      .option("--image <file>", "a new image")
      .option(
        "--focal <x,y>",
        "move the crops' focal point (0..1 from the top left); re-cuts the image without a new upload",
      )
      .option("--x-title <text>", 'a shorter title for X only (≤ 50; "" removes it)')
      .option("--whatsapp-description <text>", 'a shorter description for WhatsApp only (≤ 80; "" removes it)')
      .option("--json", "print the link as JSON")
      .addHelpText(
        "after",
        example(
          `linkprev links edit spring-sale --title "Spring sale: last days" --focal 0.7,0.4\n  linkprev links edit spring-sale --max-clicks 100 --utm-campaign spring`,
        ),
      ),
  ).action(
    async (
      slug: string,
      options: {
        target?: string;
        title?: string;
        description?: string;
        slug?: string;
        image?: string;
        json?: boolean;
      } & VariantOptions &
        RuleOptions,
    ) => {
      // Checked before any request.
      if (options.focal !== undefined) focalPoint(options.focal);
      const current = await bySlug(slug);
      const form = linkForm({
        target: withUtm(options.target ?? current.targetUrl, options),
        title: options.title ?? current.title,
        description: options.description ?? current.description,
        slug: options.slug ?? current.linkSlug,
        image: options.image,
        imageUrl: options.image ? undefined : current.imageUrl,
      });
      const link = await bySlug(slug, { method: "PUT", form: addRules(addVariants(form, options), options) });
      if (options.json) json(link);
      else out(process.stdout.isTTY ? `Updated ${link.shortUrl}` : link.shortUrl);
    },
  );

  links
    .command("delete")
    .description("Delete a link: its short URL stops working")
    .argument("<slug>", "the link's slug")
    .option("--yes", "do not ask for confirmation")
    .addHelpText("after", example("linkprev links delete spring-sale --yes"))
    .action(async (slug: string, options: { yes?: boolean }) => {
      // With no terminal to ask on, only an explicit --yes deletes: a script's missing flag must not.
      if (!options.yes && !process.stdin.isTTY)
        throw usageError(`Not deleted: no terminal to confirm on; to delete ${slug} from a script, add --yes`);
      const link = await bySlug(slug);
      if (!options.yes) {
        const answer = await ask(`Delete ${link.shortUrl}? It will stop working. [y/N] `);
        if (!/^y(es)?$/i.test(answer)) return void out("Not deleted");
      }
      await call(loadSettings(), `/api/links/${link.id}`, { method: "DELETE" });
      out(`Deleted ${link.shortUrl}`);
    });

  registerCardCommands(links, (slug) => bySlug(slug));
  registerDataCommands(program, links, linkForm);
  registerDomainCommands(program);
  registerWebhookCommands(program);
}

export { CliError };
