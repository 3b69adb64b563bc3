// The client commands: login, logout, whoami and links …, over the same HTTP API as the web app (login, logout and
// whoami in account-commands.ts, links list in link-list-command.ts, a link's card and audience in card-commands.ts,
// import, export and account deletion in data-commands.ts).
import type { Command } from "commander";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { registerAccountCommands } from "./account-commands.ts";
import { ask } from "./ask.ts";
import { registerCardCommands } from "./card-commands.ts";
import { registerDataCommands } from "./data-commands.ts";
import { addRuleOptions, addRules, ruleLines, statusText, withUtm, type RuleOptions } from "./rule-options.ts";
import { registerDomainCommands } from "./domain-commands.ts";
import { addVariants, focalPoint, linkForm, type VariantOptions } from "./link-form.ts";
import { registerLinkListCommand } from "./link-list-command.ts";
import { registerWebhookCommands } from "./webhook-commands.ts";
import { registerWorkspaceCommands } from "./workspace-commands.ts";
import { registerQrStyleCommands } from "./qr-style-commands.ts";
import { api, CliError, multipart, usageError } from "./http.ts";
import { example, json, out, platformLabel } from "./output.ts";
import { loadSettings } from "./settings.ts";

export function registerClientCommands(program: Command): void {
  registerAccountCommands(program);
  registerWorkspaceCommands(program);

  const links = program
    .command("links")
    .description("Create, list, show, edit and delete links")
    .addHelpText("after", example("linkprev links list"));

  registerLinkListCommand(links);

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
        const found = await api(loadSettings(), (client) =>
          ok(client.POST("/api/links/metadata", { body: { url: options.target } })),
        );
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
      const body = multipart<Schemas["createLinkBody"]>(addRules(addVariants(form, options), options));
      const link = await api(loadSettings(), (client) => ok(client.POST("/api/links", { body })));
      if (options.json) return void json(link);
      out(process.stdout.isTTY ? `Created ${link.shortUrl}` : link.shortUrl);
      // On stderr, so a script that keeps stdout's short URL still gets only the URL.
      if (link.warnings.length > 0)
        process.stderr.write(
          `Preview warnings:\n${link.warnings.map((w) => `  ${w.severity.padEnd(7)} ${w.message} (${w.platforms.map(platformLabel).join(", ")})`).join("\n")}\n`,
        );
    },
  );

  /** The signed-in user's link by its slug. */
  const bySlug = (slug: string) =>
    api(loadSettings(), (client) =>
      ok(client.GET("/api/links/by-slug/{linkSlug}", { params: { path: { linkSlug: slug } } })),
    );

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
      const body = multipart<Schemas["createLinkBody"]>(addRules(addVariants(form, options), options));
      const params = { path: { linkSlug: slug } };
      const link = await api(loadSettings(), (client) =>
        ok(client.PUT("/api/links/by-slug/{linkSlug}", { params, body })),
      );
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
      await api(loadSettings(), (client) => client.DELETE("/api/links/{id}", { params: { path: { id: link.id } } }));
      out(`Deleted ${link.shortUrl}`);
    });

  registerCardCommands(links, (slug) => bySlug(slug));
  registerDataCommands(program, links, linkForm);
  registerDomainCommands(program);
  registerWebhookCommands(program);
  registerQrStyleCommands(program);
}

export { CliError };
