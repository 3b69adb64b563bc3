#!/usr/bin/env bun
// The one executable: `serve`, the `admin` commands that work on a data directory, and the client commands.
import { Command, CommanderError } from "commander";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError, registerClientCommands } from "./client/commands.ts";
import { registerSafetyCommands } from "./safety-commands.ts";
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from "./client/completion.ts";
import { apiTokenFor, loginLinkFor } from "../src/admin/access.ts";
import { CopyRefused, copyToPostgres } from "../src/admin/copy-to-postgres.ts";
import { backupSqlite, uploadsBackupOf } from "../src/admin/backup.ts";
import { openPlatform } from "../src/db/platform.ts";
import { DatabaseUnavailable } from "../src/db/unavailable.ts";
import { loadConfig } from "../src/config/config.ts";
import { formatVersion, resolveRelease, versionInfo } from "../src/meta/version.ts";
import { runningServer } from "../src/start/server-address.ts";
import { configFrom, existingDatabase, noDatabaseIn, type DataOptions } from "./data-options.ts";
import { registerServeCommand } from "./serve-command.ts";

const program = new Command()
  .name("linkprev")
  .description("Custom link previews with short URLs: server, admin and client in one executable.")
  .showHelpAfterError()
  // Exit codes: 1 refused by the server, 2 bad usage, 3 server unreachable.
  .exitOverride()
  .addHelpText(
    "after",
    "\nExamples:\n  linkprev serve\n  linkprev login --server https://links.example.com --token lp_xxxxxxxx\n  linkprev links create --target https://example.com --title Hello --description World\n\nExit codes: 0 ok, 1 refused by the server, 2 bad usage, 3 server unreachable.",
  );

/** RELEASE from the environment when it is valid; a bad setting elsewhere must not hide the version. */
function configuredRelease(): string | undefined {
  try {
    return loadConfig().release;
  } catch {
    return undefined;
  }
}

program.version(
  formatVersion(versionInfo(resolveRelease(configuredRelease()))),
  "-V, --version",
  "print the version and release",
);

registerServeCommand(program);

const admin = program
  .command("admin")
  .description("Work on a data directory directly (run on the server's machine)")
  .addHelpText("after", "\nExample:\n  linkprev admin token create --email ana@example.com --data /var/lib/linkprev");

admin
  .command("login-link")
  .description("Print a one-time sign-in link (15 minutes) for an e-mail, creating the user if needed")
  .requiredOption("--email <email>", "the user's e-mail")
  .option("--name <name>", "the user's full name, for a new user")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin login-link --email ana@example.com --name 'Ana Silva'")
  .action(async (options: DataOptions & { email: string; name?: string }) => {
    const config = configFrom(options);
    const database = await existingDatabase(config);
    // The running server's PUBLIC_URL: it may listen on another port than this shell's default.
    console.log(
      await loginLinkFor(
        database,
        runningServer(config.dataDir)?.publicUrl ?? config.publicUrl,
        options.email,
        options.name,
      ),
    );
    await database.close();
  });

admin
  .command("token")
  .description("API tokens")
  .addHelpText("after", "\nExample:\n  linkprev admin token create --email ana@example.com --name laptop")
  .command("create")
  .description("Print a new API token for an e-mail, creating the user if needed (shown once)")
  .requiredOption("--email <email>", "the user's e-mail")
  .option("--name <name>", "a name for the token", "cli")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin token create --email ana@example.com --name laptop")
  .action(async (options: DataOptions & { email: string; name: string }) => {
    const database = await existingDatabase(configFrom(options));
    console.log(await apiTokenFor(database, options.email, options.name));
    await database.close();
  });

admin
  .command("backup")
  .description(
    "Write a consistent copy of the database while the server runs (SQLite VACUUM INTO), and the uploads folder beside it (FILE.uploads)",
  )
  .argument("<file>", "where to write the copy (must not exist)")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin backup /backups/linkprev-$(date +%F).db")
  .action((file: string, options: DataOptions) => {
    const config = configFrom(options);
    if (config.postgres) {
      throw new CliError(
        'LinkPrev runs on PostgreSQL here (DATABASE_URL): back it up with pg_dump, e.g. pg_dump --format=custom --file=linkprev.dump "$DATABASE_URL"',
        2,
      );
    }
    const target = resolve(file);
    if (!existsSync(dirname(target)))
      throw new CliError(
        `The folder ${dirname(target)} does not exist: create it first (mkdir -p ${dirname(target)})`,
        2,
      );
    for (const path of [target, uploadsBackupOf(target)])
      if (existsSync(path)) throw new CliError(`${path} already exists`, 2);
    if (!existsSync(config.dbPath)) throw noDatabaseIn(config);
    console.log(`Backed up to ${backupSqlite(config, target).join(" and ")}`);
  });

admin
  .command("migrate")
  .description("Apply pending database migrations (serve does this too)")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin migrate --data /var/lib/linkprev")
  .action(async (options: DataOptions) => {
    const { database } = await openPlatform(configFrom(options));
    const applied = await database.migrate();
    await database.close();
    console.log(applied.length ? `Applied ${applied.join(", ")}` : "Database is up to date");
  });

admin
  .command("copy-to-postgres")
  .description(
    "Copy a SQLite data directory (every row, and its uploaded images) into an empty PostgreSQL database; stop the server first",
  )
  .option(
    "--database-url <url>",
    "the PostgreSQL database to fill (env DATABASE_URL); it is migrated, and must hold no LinkPrev rows",
  )
  .option("--data <dir>", "the SQLite data directory to copy (env DATA_DIR, default ./data)")
  .addHelpText(
    "after",
    "\nImages go to the store UPLOADS_STORE names (s3 or db; with dir they stay in DATA_DIR/uploads).\n\nExample:\n  UPLOADS_STORE=db linkprev admin copy-to-postgres --database-url postgres://linkprev@db.internal/linkprev --data /var/lib/linkprev",
  )
  .action(async (options: DataOptions) => {
    const config = configFrom(options);
    if (!config.postgres)
      throw new CliError("Name the PostgreSQL database to fill: --database-url postgres://… (or DATABASE_URL)", 2);
    try {
      await copyToPostgres(config, (line) => console.log(line));
    } catch (error) {
      if (error instanceof CopyRefused) throw new CliError(error.message, 2);
      if (error instanceof DatabaseUnavailable || !(error instanceof Error)) throw error;
      throw new CliError(`copy-to-postgres failed, nothing was committed to PostgreSQL: ${error.message}`, 1);
    }
  });

admin
  .command("health")
  .description("Exit 0 when the local server answers /healthz (for container health checks)")
  .option("--port <n>", "the server's port (default: the one the server on --data listens on, else env PORT or 3000)")
  .option("--data <dir>", "data directory of the server to check (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin health --port 3000")
  .action(async (options: DataOptions) => {
    const config = configFrom(options);
    const running = options.port === undefined ? runningServer(config.dataDir) : null;
    const url = running?.url ?? `http://127.0.0.1:${config.port}`;
    const response = await fetch(`${url}/healthz`).catch(() => null);
    if (!response?.ok)
      throw new CliError(
        `LinkPrev is not healthy at ${url}${response ? ` (HTTP ${response.status})` : " (no answer)"}`,
        1,
      );
    console.log(`ok (${url})`);
  });

registerSafetyCommands(admin, configFrom);
// The workspace every client command acts in, for this command only (cli/client/settings.ts reads it).
program
  .option("--workspace <slug>", "act in this workspace (default: the one `linkprev workspaces switch` chose)")
  .hook("preAction", () => {
    const { workspace } = program.opts<{ workspace?: string }>();
    if (workspace) process.env.LINKPREV_WORKSPACE = workspace;
  });
registerClientCommands(program);

program
  .command("completion")
  .description("Print a shell completion script (bash, zsh or fish)")
  .argument("<shell>", COMPLETION_SHELLS.join(", "))
  .addHelpText(
    "after",
    '\nExamples:\n  linkprev completion bash > ~/.local/share/bash-completion/completions/linkprev\n  linkprev completion zsh > "${fpath[1]}/_linkprev"\n  linkprev completion fish > ~/.config/fish/completions/linkprev.fish',
  )
  .action((shell: string) => {
    if (!(COMPLETION_SHELLS as readonly string[]).includes(shell))
      throw new CliError(`unknown shell ${shell}: use ${COMPLETION_SHELLS.join(", ")}`, 2);
    process.stdout.write(completionScript(program, shell as CompletionShell));
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof DatabaseUnavailable) {
    console.error(error.message);
    process.exit(1);
  }
  if (error instanceof CliError) {
    console.error(`linkprev: ${error.message}`);
    process.exit(error.exitCode);
  }
  throw error;
}
