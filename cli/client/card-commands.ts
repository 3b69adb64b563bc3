// The client commands about a link's card and audience: lint, stats, qr, platforms and new-version.
import type { Command } from "commander";
import { writeFileSync } from "node:fs";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { qrText, qrUrl } from "../../src/links/qr-drawing.ts";
import { viewsChart } from "./chart.ts";
import { api, usageError } from "./http.ts";
import { count, example, json, out, platformLabel, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

/** `bySlug`: the signed-in user's link by its slug. */
export function registerCardCommands(links: Command, bySlug: (slug: string) => Promise<Schemas["Link"]>): void {
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
      out(
        table([
          ["SEVERITY", "RULE", "PLATFORMS", "MESSAGE"],
          ...link.warnings.map((w) => [w.severity, w.rule, w.platforms.map(platformLabel).join(","), w.message]),
        ]),
      );
    });

  links
    .command("stats")
    .description(
      "Views per day (human, bot), daily unique visitors, QR code scans, and the platforms that fetched the card",
    )
    .argument("<slug>", "the link's slug")
    .option("--days <n>", "how many days back (1–365)", "30")
    .option("--json", "print JSON")
    .option("--chart", "draw the chart even when the output is not a terminal (it is drawn on one)")
    .addHelpText("after", example("linkprev links stats spring-sale --days 7"))
    .action(async (slug: string, options: { days: string; json?: boolean; chart?: boolean }) => {
      const days = Number(options.days);
      if (!Number.isInteger(days) || days < 1 || days > 365)
        throw usageError("--days must be a whole number from 1 to 365");
      const link = await bySlug(slug);
      const views = await api(loadSettings(), (client) =>
        ok(client.GET("/api/links/{id}/views", { params: { path: { id: link.id }, query: { days } } })),
      );
      if (options.json) return void json({ link: link.shortUrl, ...views });
      out(
        `${link.shortUrl}: ${link.viewsHuman} human, ${link.viewsBot} bot, ${count(link.uniqueHumans, "daily unique visitor")} (summed), ${count(link.scans, "QR scan")} in all`,
      );
      // A person reads a chart; a pipe gets one row per day, as before.
      if (options.chart || process.stdout.isTTY) return void out(viewsChart(views.days, views.platforms).join("\n"));
      out(
        table([
          ["DAY", "HUMAN", "BOT", "VISITORS", "SCANS"],
          ...views.days.map((d) => [d.date, String(d.human), String(d.bot), String(d.uniqueHumans), String(d.scans)]),
        ]),
      );
      if (views.platforms.length)
        out(`Platforms: ${views.platforms.map((p) => `${platformLabel(p.platform)} ${p.count}`).join(" · ")}`);
    });

  type QrOptions = {
    svg?: boolean;
    png?: string;
    size: string;
    fg?: string;
    bg?: string;
    shape?: "square" | "rounded" | "dots";
    finder?: "square" | "rounded" | "dot";
    margin?: string;
    ecc?: "L" | "M" | "Q" | "H";
    inverted?: boolean;
    logo?: boolean;
    logoSize?: string;
  };
  links
    .command("qr")
    .description("The link's QR code, whose scans are counted apart: drawn in the terminal, or as SVG or PNG")
    .argument("<slug>", "the link's slug")
    .option("--svg", "print the code as SVG")
    .option("--png <file>", "write the code as a PNG file")
    .option("--size <pixels>", "the image's width and height (128–2048)", "512")
    .option("--fg <colour>", "dark modules' colour, #rrggbb (SVG and PNG)")
    .option("--bg <colour>", "light modules' colour, #rrggbb (SVG and PNG)")
    .option("--shape <shape>", "modules: square, rounded or dots (SVG and PNG)")
    .option("--finder <shape>", "the three corner patterns: square, rounded or dot (SVG and PNG)")
    .option("--margin <modules>", "light margin around the code, in modules (2–16; SVG and PNG)")
    .option("--ecc <level>", "error correction: L, M, Q or H (SVG and PNG)")
    .option("--inverted", "allow light modules on a dark ground (SVG and PNG)")
    .option("--logo", "your logo in the middle, error correction H (SVG and PNG; linkprev qr-style logo FILE)")
    .option("--no-logo", "without the logo your saved style has (SVG and PNG)")
    .option("--logo-size <share>", "the logo's width as a share of the code's, 0.1–0.38 (SVG and PNG)")
    .addHelpText("after", example("linkprev links qr spring-sale --svg --fg '#1a237e' --shape dots > code.svg"))
    .action(async (slug: string, options: QrOptions) => {
      if (options.svg && options.png) throw usageError("Choose one of --svg and --png");
      const { svg, png, size, inverted, logo, ...style } = options;
      if (!svg && !png && (Object.keys(style).length || inverted !== undefined || logo !== undefined))
        throw usageError(
          "--fg, --bg, --shape, --finder, --margin, --ecc, --inverted and --logo style --svg and --png only",
        );
      const link = await bySlug(slug);
      const image = (format: "svg" | "png") =>
        api(loadSettings(), async (client) => {
          // The size as typed: the server's words say what is wrong with it.
          // The style too: a code that would not scan is refused by the server, which says why.
          const flags = {
            ...(inverted !== undefined && { inverted: inverted ? "1" : "0" }),
            ...(logo !== undefined && { logo: logo ? "1" : "0" }),
          };
          const query = { format, size: size as unknown as number, ...style, ...flags } as {
            format: typeof format;
            size: number;
            margin?: number;
            logoSize?: number;
            inverted?: "0" | "1";
            logo?: "0" | "1";
          } & Omit<QrOptions, "svg" | "png" | "size" | "margin" | "logoSize" | "inverted" | "logo">;
          const params = { path: { id: link.id }, query };
          return new Uint8Array(await ok(client.GET("/api/links/{id}/qr", { params, parseAs: "arrayBuffer" })));
        });
      if (options.svg) return void process.stdout.write(await image("svg"));
      if (options.png) {
        writeFileSync(options.png, await image("png"));
        return void out(`Wrote ${options.png} (${qrUrl(link.shortUrl)})`);
      }
      if (!process.stdout.isTTY) throw usageError("Not a terminal: use --svg (to stdout) or --png FILE");
      out(qrText(qrUrl(link.shortUrl)));
      out(qrUrl(link.shortUrl));
    });

  links
    .command("platforms")
    .description(
      "Which platform fetched the card, how often and when; which may still show an old card, and how to refresh it",
    )
    .argument("<slug>", "the link's slug")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links platforms spring-sale"))
    .action(async (slug: string, options: { json?: boolean }) => {
      const link = await bySlug(slug);
      const body = await api(loadSettings(), (client) =>
        ok(client.GET("/api/links/{id}/platforms", { params: { path: { id: link.id } } })),
      );
      if (options.json) return void json(body);
      out(`${link.shortUrl}: card last changed ${new Date(body.cardUpdatedAt).toISOString()}`);
      out(
        table([
          ["PLATFORM", "FETCHES", "LAST FETCHED", "STALE", "REFRESH"],
          ...body.platforms.map((p) => [
            platformLabel(p.platform),
            String(p.fetches),
            p.lastFetchedAt ? new Date(p.lastFetchedAt).toISOString() : "never",
            p.stale ? "yes" : "no",
            p.refresh.kind === "new-version"
              ? `linkprev links new-version ${link.linkSlug}`
              : (p.refresh.url ?? p.refresh.kind),
          ]),
        ]),
      );
    });

  links
    .command("new-version")
    .description(
      "Issue a new version of a link's short URL (…/go/you/slug/2): the same link at a new address, for platforms that keep showing an old card",
    )
    .argument("<slug>", "the link's slug")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev links new-version spring-sale"))
    .action(async (slug: string, options: { json?: boolean }) => {
      const link = await bySlug(slug);
      const issued = await api(loadSettings(), (client) =>
        ok(client.POST("/api/links/{id}/versions", { params: { path: { id: link.id } } })),
      );
      if (options.json) json(issued);
      else out(issued.shortUrl);
    });
}
