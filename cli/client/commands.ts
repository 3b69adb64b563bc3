// The client commands: login, logout, whoami and links …, over the same HTTP API as the web app.
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline/promises";
import type { LinkView } from "../../src/links/service.ts";
import { registerDataCommands } from "./data-commands.ts";
import { call, CliError, usageError } from "./http.ts";
import { forgetSettings, loadSettings, saveSettings } from "./settings.ts";

type Me = { email: string; userSlug: string; firstName: string | null; lastName: string | null };
type LinkPlatforms = {
  cardUpdatedAt: string;
  platforms: Array<{ platform: string; fetches: number; lastFetchedAt: string | null; stale: boolean; cacheNote: string; refresh: { kind: string; url: string | null } }>;
};
type Views = { days: Array<{ date: string; human: number; bot: number }>; platforms: Array<{ platform: string; count: number }> };

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const json = (value: unknown) => out(JSON.stringify(value, null, 2));

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n");
}

const imageMime: Record<string, string> = { jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

function linkForm(fields: { target: string; title: string; description: string; slug?: string; image?: string; imageUrl?: string | null }): FormData {
  const form = new FormData();
  form.append("targetUrl", fields.target);
  form.append("title", fields.title);
  form.append("description", fields.description);
  if (fields.slug) form.append("customLinkSlug", fields.slug);
  if (fields.imageUrl !== undefined) form.append("imageUrl", fields.imageUrl ?? "");
  if (fields.image) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(fields.image));
    } catch {
      throw usageError(`Cannot read image file ${fields.image}`);
    }
    const extension = fields.image.split(".").pop()?.toLowerCase() ?? "";
    form.append("image", new File([bytes], basename(fields.image), { type: imageMime[extension] ?? "application/octet-stream" }));
  }
  return form;
}

const example = (text: string) => `\nExample:\n  ${text}`;

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
      const me = await call<Me>({ server, token }, "/api/auth/user");
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
      const me = await call<Me>(loadSettings(), "/api/auth/user");
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
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links list --json | jq '.[].shortUrl'"))
    .action(async (options: { deleted?: boolean; json?: boolean }) => {
      const list = await call<LinkView[]>(loadSettings(), options.deleted ? "/api/links/deleted" : "/api/links");
      if (options.json) return void json(list);
      if (list.length === 0) return void out(options.deleted ? "No deleted links" : "No links yet: linkprev links create --help");
      out(table([["SLUG", "SHORT URL", "TITLE", "HUMAN", "BOT", "CREATED"], ...list.map((l) => [l.linkSlug, l.shortUrl, l.title.length > 40 ? `${l.title.slice(0, 39)}…` : l.title, String(l.viewsHuman), String(l.viewsBot), new Date(l.createdAt).toISOString().slice(0, 10)])]));
    });

  links
    .command("create")
    .description("Create a link; prints its short URL")
    .requiredOption("--target <url>", "where people are sent")
    .requiredOption("--title <title>", "the preview's title (≤ 60)")
    .requiredOption("--description <text>", "the preview's description (≤ 160)")
    .option("--slug <slug>", "a custom short URL slug (pro and enterprise)")
    .option("--image <file>", "a JPG, PNG or WebP image (≤ 5 MB), cropped to 1200×630")
    .option("--json", "print the created link as JSON")
    .addHelpText("after", example(`url=$(linkprev links create --target https://example.com/post --title "My post" --description "Read it" --image cover.png)`))
    .action(async (options: { target: string; title: string; description: string; slug?: string; image?: string; json?: boolean }) => {
      const link = await call<LinkView>(loadSettings(), "/api/links", { method: "POST", form: linkForm(options) });
      if (options.json) json(link);
      else out(process.stdout.isTTY ? `Created ${link.shortUrl}` : link.shortUrl);
    });

  /** Reads (or, with `init`, updates) the signed-in user's link by its slug. */
  const bySlug = (slug: string, init?: Parameters<typeof call>[2]) => call<LinkView>(loadSettings(), `/api/links/by-slug/${encodeURIComponent(slug)}`, init);

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
          `Short URL    ${link.shortUrl}`,
          `Target       ${link.targetUrl}`,
          `Title        ${link.title}`,
          `Description  ${link.description}`,
          `Image        ${link.imageUrl ?? "-"}`,
          `Views        ${link.viewsHuman} human, ${link.viewsBot} bot`,
          `Created      ${new Date(link.createdAt).toISOString()}`,
        ].join("\n"),
      );
    });

  links
    .command("edit")
    .description("Change a link; options not given keep their value")
    .argument("<slug>", "the link's slug")
    .option("--target <url>", "where people are sent")
    .option("--title <title>", "the preview's title")
    .option("--description <text>", "the preview's description")
    .option("--slug <slug>", "a new custom slug")
    .option("--image <file>", "a new image")
    .option("--json", "print the link as JSON")
    .addHelpText("after", example(`linkprev links edit spring-sale --title "Spring sale: last days"`))
    .action(async (slug: string, options: { target?: string; title?: string; description?: string; slug?: string; image?: string; json?: boolean }) => {
      const current = await bySlug(slug);
      const form = linkForm({
        target: options.target ?? current.targetUrl,
        title: options.title ?? current.title,
        description: options.description ?? current.description,
        slug: options.slug ?? current.linkSlug,
        image: options.image,
        imageUrl: options.image ? undefined : current.imageUrl,
      });
      const link = await bySlug(slug, { method: "PUT", form });
      if (options.json) json(link);
      else out(process.stdout.isTTY ? `Updated ${link.shortUrl}` : link.shortUrl);
    });

  links
    .command("delete")
    .description("Delete a link: its short URL stops working")
    .argument("<slug>", "the link's slug")
    .option("--yes", "do not ask for confirmation")
    .addHelpText("after", example("linkprev links delete spring-sale --yes"))
    .action(async (slug: string, options: { yes?: boolean }) => {
      const link = await bySlug(slug);
      if (!options.yes && process.stdin.isTTY) {
        const answer = await ask(`Delete ${link.shortUrl}? It will stop working. [y/N] `);
        if (!/^y(es)?$/i.test(answer)) return void out("Not deleted");
      }
      await call(loadSettings(), `/api/links/${link.id}`, { method: "DELETE" });
      out(`Deleted ${link.shortUrl}`);
    });

  links
    .command("lint")
    .description("Check a link's preview card: what each platform will cut, crop or leave out, and what to do")
    .argument("<slug>", "the link's slug")
    .option("--json", "print the warnings as JSON")
    .addHelpText("after", example("linkprev links lint spring-sale"))
    .action(async (slug: string, options: { json?: boolean }) => {
      const link = await bySlug(slug);
      if (options.json) return void json(link.warnings);
      if (link.warnings.length === 0) return void out(`${link.shortUrl}: no warnings`);
      out(`${link.shortUrl}: ${link.warnings.length} warning${link.warnings.length === 1 ? "" : "s"}`);
      out(table([["SEVERITY", "RULE", "PLATFORMS", "MESSAGE"], ...link.warnings.map((w) => [w.severity, w.rule, w.platforms.join(","), w.message])]));
    });

  links
    .command("stats")
    .description("Views per day, human and bot, and the platforms that fetched the card")
    .argument("<slug>", "the link's slug")
    .option("--days <n>", "how many days back (1–365)", "30")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links stats spring-sale --days 7"))
    .action(async (slug: string, options: { days: string; json?: boolean }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 365) throw usageError("--days must be a whole number from 1 to 365");
      const link = await bySlug(slug);
      const views = await call<Views>(loadSettings(), `/api/links/${link.id}/views?days=${days}`);
      if (options.json) return void json({ link: link.shortUrl, ...views });
      out(`${link.shortUrl}: ${link.viewsHuman} human, ${link.viewsBot} bot in all`);
      out(table([["DAY", "HUMAN", "BOT"], ...views.days.map((d) => [d.date, String(d.human), String(d.bot)])]));
      if (views.platforms.length) out(`Platforms: ${views.platforms.map((p) => `${p.platform} ${p.count}`).join(" · ")}`);
    });

  links
    .command("platforms")
    .description("Which platform fetched the card, how often and when; which may still show an old card, and how to refresh it")
    .argument("<slug>", "the link's slug")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links platforms spring-sale"))
    .action(async (slug: string, options: { json?: boolean }) => {
      const link = await bySlug(slug);
      const body = await call<LinkPlatforms>(loadSettings(), `/api/links/${link.id}/platforms`);
      if (options.json) return void json(body);
      out(`${link.shortUrl}: card last changed ${new Date(body.cardUpdatedAt).toISOString()}`);
      out(
        table([
          ["PLATFORM", "FETCHES", "LAST FETCHED", "STALE", "REFRESH"],
          ...body.platforms.map((p) => [
            p.platform,
            String(p.fetches),
            p.lastFetchedAt ? new Date(p.lastFetchedAt).toISOString() : "never",
            p.stale ? "yes" : "no",
            p.refresh.kind === "new-version" ? "new version of the short URL" : (p.refresh.url ?? p.refresh.kind),
          ]),
        ]),
      );
    });

  registerDataCommands(program, links, linkForm);
}

export { CliError };
