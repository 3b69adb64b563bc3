// The user's data from the command line: `links import FILE.csv`, `links export --csv`, `account delete`.
import type { Command } from "commander";
import { parse } from "csv-parse/sync";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { validationError } from "../../src/http/errors.ts";
import { LinkInput } from "../../src/links/model.ts";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { api, CliError, multipart, usageError } from "./http.ts";
import { out } from "./output.ts";
import { forgetSettings, loadSettings } from "./settings.ts";

/** A CSV row that passed the checks: what POST /api/links gets, and the line it came from. */
export type ImportRow = {
  line: number;
  target: string;
  title: string;
  description: string;
  slug?: string;
  image?: string;
};
export type ImportProblem = { line: number; message: string };

const REQUIRED_COLUMNS = ["target", "title", "description"];

/** Whether `path` (symlinks resolved) lies inside the folder `root` (resolved too). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * Reads and checks every row before anything is created: the API's rules and messages (src/links/model.ts),
 * and an image given as a path (relative to the CSV file) must exist. Lines are those of the file, where the row ends.
 * An image must lie inside the CSV's folder, or `imagesFrom` when given: a CSV from someone else must not be able
 * to upload any file this user can read (an absolute path, `../`, a symlink leading out).
 */
export function readImportFile(path: string, imagesFrom?: string): { rows: ImportRow[]; problems: ImportProblem[] } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    throw usageError(`Cannot read ${path}`);
  }
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      bom: true,
      info: true,
      trim: true,
    });
  } catch (error) {
    throw usageError(`${path} is not valid CSV: ${error instanceof Error ? error.message : error}`);
  }
  const columns = records[0] ? Object.keys(records[0].record) : [];
  const missing = REQUIRED_COLUMNS.filter((name) => records.length > 0 && !columns.includes(name));
  if (missing.length > 0)
    throw usageError(
      `${path} needs the columns ${REQUIRED_COLUMNS.join(", ")} (slug and image are optional); missing: ${missing.join(", ")}`,
    );

  let imageRoot: string;
  try {
    imageRoot = realpathSync(imagesFrom ?? dirname(path));
  } catch {
    throw usageError(`Cannot read the folder ${imagesFrom}`);
  }
  const outside =
    imagesFrom === undefined
      ? "outside the CSV's folder (use --images-from DIR to allow another folder)"
      : `outside ${imagesFrom}`;

  const rows: ImportRow[] = [];
  const problems: ImportProblem[] = [];
  for (const { record, info } of records) {
    const line = info.lines;
    const checked = LinkInput.safeParse({
      targetUrl: record.target ?? "",
      title: record.title ?? "",
      description: record.description ?? "",
      customLinkSlug: record.slug ?? null,
    });
    if (!checked.success) {
      problems.push({ line, message: validationError(checked.error.issues).message });
      continue;
    }
    const image = record.image ? resolve(dirname(path), record.image) : undefined;
    if (image && !existsSync(image)) {
      problems.push({ line, message: `image: Cannot read image file ${record.image}` });
      continue;
    }
    if (image && !isInside(imageRoot, realpathSync(image))) {
      problems.push({ line, message: `image: ${record.image} is ${outside}` });
      continue;
    }
    const { targetUrl, title, description, customLinkSlug } = checked.data;
    rows.push({
      line,
      target: new URL(targetUrl).href,
      title,
      description,
      ...(customLinkSlug ? { slug: customLinkSlug } : {}),
      ...(image ? { image } : {}),
    });
  }
  return { rows, problems };
}

/** Already created by an earlier run: same slug and target, or (rows without a slug) same target and title. */
export function alreadyCreated(row: ImportRow, existing: Schemas["Link"][]): boolean {
  return existing.some(
    (link) => (row.slug ? link.linkSlug === row.slug : link.title === row.title) && link.targetUrl === row.target,
  );
}

/** A status line that redraws itself on a terminal. */
function progressBar(total: number) {
  const width = 30;
  return (done: number, note: string) => {
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stderr.write(
      `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${note}`.padEnd(80).slice(0, 100),
    );
  };
}

const warn = (text: string): void => void process.stderr.write(`${text}\n`);

type LinkFormFields = { target: string; title: string; description: string; slug?: string; image?: string };

export function registerDataCommands(
  program: Command,
  links: Command,
  linkForm: (fields: LinkFormFields) => FormData,
): void {
  links
    .command("import")
    .description("Create links from a CSV file (columns: target, title, description, and optional slug, image)")
    .argument("<file>", "the CSV file; image paths are relative to it")
    .option("--dry-run", "check every row and say what would be created, create nothing")
    .option("--images-from <dir>", "take images from this folder instead of the CSV's (paths stay relative to the CSV)")
    .addHelpText(
      "after",
      "\nEvery row is checked first; bad rows are reported with their line and skipped. Rows created by an earlier run\n" +
        "(same slug and target, or same target and title) are skipped, so a stopped import can simply be run again.\n" +
        "Images must lie inside the CSV's folder (or the --images-from folder); other rows are refused.\n" +
        "Ctrl-C stops after the current row.\n\nExample:\n  linkprev links import links.csv --dry-run",
    )
    .action(async (file: string, options: { dryRun?: boolean; imagesFrom?: string }) => {
      const { rows, problems } = readImportFile(file, options.imagesFrom);
      for (const problem of problems) warn(`line ${problem.line}: ${problem.message}`);
      const settings = loadSettings();
      const existing = await api(settings, (client) => ok(client.GET("/api/links")));
      const todo = rows.filter((row) => !alreadyCreated(row, existing));
      const skipped = rows.length - todo.length;
      if (options.dryRun) {
        out(`Dry run: ${todo.length} to create, ${skipped} already there, ${problems.length} invalid`);
        for (const row of todo) out(`line ${row.line}: would create ${row.slug ? `/${row.slug} → ` : ""}${row.target}`);
        if (problems.length > 0) process.exitCode = 1;
        return;
      }

      let interrupted = false;
      const onInterrupt = () => {
        interrupted = true;
      };
      process.on("SIGINT", onInterrupt);
      const tty = Boolean(process.stderr.isTTY);
      const draw = tty ? progressBar(todo.length) : null;
      let created = 0;
      let failed = 0;
      let stoppedBy: string | null = null;
      try {
        for (const [index, row] of todo.entries()) {
          if (interrupted) {
            stoppedBy = `Stopped by Ctrl-C after ${index} of ${todo.length} rows`;
            break;
          }
          draw?.(index, `line ${row.line}`);
          try {
            const body = multipart<Schemas["createLinkBody"]>(linkForm(row));
            const link = await api(settings, (client) => ok(client.POST("/api/links", { body })));
            created++;
            if (!tty) out(`line ${row.line}: created ${link.shortUrl}`);
          } catch (error) {
            if (!(error instanceof CliError) || error.status === undefined) throw error;
            failed++;
            if (tty) process.stderr.write("\n");
            warn(`line ${row.line}: ${error.message}`);
            // Out of quota or without a subscription: the next rows would be refused too.
            if (error.status === 402 || error.status === 403) {
              stoppedBy = `Stopped at line ${row.line}: refused by your plan`;
              break;
            }
          }
        }
        draw?.(created + failed, "");
        if (tty) process.stderr.write("\n");
      } finally {
        process.off("SIGINT", onInterrupt);
      }
      out(
        `${stoppedBy ? `${stoppedBy}. ` : ""}Created ${created}, skipped ${skipped} already there, ${problems.length + failed} not created${stoppedBy ? "; run the same command again to continue" : ""}`,
      );
      if (problems.length + failed > 0 || stoppedBy) process.exitCode = interrupted ? 130 : 1;
    });

  links
    .command("export")
    .description("Print your links as CSV (slug, short URL, target, title, description, image URL, created, views)")
    .option(
      "--csv",
      "CSV (the default, and the only format for now; `linkprev account export` gives everything as JSON)",
    )
    .addHelpText("after", "\nExample:\n  linkprev links export > links.csv")
    .action(async () => {
      const csv = await api(loadSettings(), (client) => ok(client.GET("/api/links/export.csv", { parseAs: "text" })));
      process.stdout.write(csv);
    });

  const account = program
    .command("account")
    .description("Your account: accept the terms, download its data, or delete it");

  account
    .command("accept-terms")
    .description("Accept the server's terms and privacy policy (needed once before your first change through the API)")
    .requiredOption(
      "--yes",
      "you have read the terms and the privacy policy (their addresses are printed) and accept them",
    )
    .addHelpText("after", "\nExample:\n  linkprev account accept-terms --yes")
    .action(async () => {
      const settings = loadSettings();
      await api(settings, (client) =>
        client.POST("/api/auth/consent", { body: { termsAccepted: true, privacyAccepted: true } }),
      );
      const server = settings.server!.replace(/\/+$/, "");
      out(`Accepted the terms (${server}/terms) and the privacy policy (${server}/privacy).`);
    });

  account
    .command("export")
    .description("Print everything the server holds about you, as JSON")
    .addHelpText("after", "\nExample:\n  linkprev account export > my-data.json")
    .action(async () => {
      // As the server wrote it: the same bytes a browser's download saves.
      const data = await api(loadSettings(), (client) => ok(client.GET("/api/account/export", { parseAs: "text" })));
      process.stdout.write(data);
    });

  account
    .command("delete")
    .description("Delete your account now: links, views, images and tokens; the subscription is cancelled at once")
    .requiredOption("--confirm <email>", "your account's e-mail address, to confirm")
    .addHelpText(
      "after",
      "\nThis cannot be undone. Payment records are kept, without your name or e-mail, for the invoices.\n\nExample:\n  linkprev account delete --confirm me@example.com",
    )
    .action(async (options: { confirm: string }) => {
      await api(loadSettings(), (client) => client.DELETE("/api/account", { body: { confirmEmail: options.confirm } }));
      forgetSettings();
      out("Your account is deleted. The stored token was forgotten.");
    });
}
