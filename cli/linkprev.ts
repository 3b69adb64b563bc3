#!/usr/bin/env bun
// The one executable: `serve`, the `admin` commands that work on a data directory, and the client commands.
import { Command, CommanderError } from "commander";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError, registerClientCommands } from "./client/commands.ts";
import { registerSafetyCommands } from "./safety-commands.ts";
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from "./client/completion.ts";
import { apiTokenFor, loginLinkFor, openDatabase, ownerHasSignedIn, ownerLoginLink } from "../src/admin/access.ts";
import { CopyRefused, copyToPostgres } from "../src/admin/copy-to-postgres.ts";
import { backupSqlite, uploadsBackupOf } from "../src/admin/backup.ts";
import { openPlatform } from "../src/db/platform.ts";
import { DatabaseUnavailable } from "../src/db/unavailable.ts";
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from "../src/config/config.ts";
import { formatVersion, resolveRelease, versionInfo } from "../src/meta/version.ts";
import { removeServerAddress, runningServer, writeServerAddress } from "../src/start/server-address.ts";
import { storageLines } from "../src/start/start-banner.ts";

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

type DataOptions = { port?: string; host?: string; data?: string; databaseUrl?: string };

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

/** `text` as one shell word: as it is when it is plain, else single-quoted. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

function noDatabaseIn(config: Config): CliError {
  return new CliError(
    `No LinkPrev database in ${config.dataDir} (no linkprev.db there): run this from the folder the server runs in, or pass --data with the data directory its start banner names`,
    2,
  );
}

/** The database the server uses; on SQLite one that exists, so a command run from the wrong folder does not create a new empty one. */
async function existingDatabase(config: Config) {
  if (!config.postgres && !existsSync(config.dbPath)) throw noDatabaseIn(config);
  return openDatabase(config);
}

function configFrom(options: DataOptions) {
  const overrides: ConfigOverrides = {
    PORT: options.port,
    HOST: options.host,
    DATA_DIR: options.data,
    DATABASE_URL: options.databaseUrl,
  };
  try {
    return loadConfig(overrides);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

program
  .command("serve")
  .description("Start the LinkPrev server")
  .option("--port <n>", "port to listen on (env PORT, default 3000)")
  .option("--host <h>", "address to bind (env HOST, default 127.0.0.1)")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .option(
    "--print-login-link",
    "print the owner's sign-in link even when the output is not a terminal (until the owner first signs in)",
  )
  .addHelpText("after", "\nExample:\n  linkprev serve --port 8080 --data /var/lib/linkprev")
  .action(async (options: DataOptions & { printLoginLink?: boolean }) => {
    const config = configFrom(options);
    // Loaded here: the server's pages need the built assets, which the client and admin commands do not (they
    // work right after `npm install`). The binary has them inside.
    const { startServer } = await import("../src/server.ts").catch((error: unknown) => {
      if (String(error).includes("assets.gen"))
        throw new CliError(
          "The web assets are not built: run npm start (it builds them), or bun scripts/build-assets.ts first",
          2,
        );
      throw error;
    });
    const server = await startServer(config).catch((error: { code?: unknown }) => {
      const code = String(error?.code);
      if (code === "EROFS" || code === "EACCES" || code.startsWith("SQLITE_READONLY") || code === "SQLITE_CANTOPEN") {
        throw new CliError(
          `The data directory ${config.dataDir} cannot be written (${code}): LinkPrev keeps its database, uploads and view spool there`,
          1,
        );
      }
      throw error;
    });
    // At once, before anything else is awaited: the server already answers, so a signal from now on must store
    // the views it counted (the sign-in link below is a database write that can take a moment).
    const shutdown = async (signal: string) => {
      server.ctx.log.info(`${signal}: storing buffered views and stopping`);
      removeServerAddress(config.dataDir);
      await server.stop();
      process.exit(0);
    };
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
    await writeServerAddress(config.dataDir, { url: server.url, publicUrl: config.publicUrl, pid: process.pid });
    server.ctx.log.info(
      `LinkPrev listening on ${server.url} (public URL ${config.publicUrl}, data in ${config.dataDir})`,
    );
    for (const line of storageLines(config)) server.ctx.log.info(line);
    if (config.google) server.ctx.log.info("Sign-in: Google");
    else {
      // With this server's data directory, so that the command works from any folder.
      const loginLink = `linkprev admin login-link --email E --data ${shellWord(config.dataDir)}`;
      server.ctx.log.info(`Sign-in: Google is not configured; sign in with a one-time link (${loginLink}).`);
      // A working link in the logs lets whoever reads them sign in as the owner: it is printed only to a person at
      // a terminal (or on request), and only until the owner has signed in once.
      if (await ownerHasSignedIn(server.ctx.database))
        server.ctx.log.info(
          `Owner sign-in link: not printed, the owner has signed in before; get one with ${loginLink}`,
        );
      else if (options.printLoginLink || (process.stdout.isTTY && config.logFormat !== "json")) {
        server.ctx.log.info(
          `Owner sign-in link (one use, 15 minutes): ${await ownerLoginLink(server.ctx.database, config.publicUrl)}`,
        );
      } else
        server.ctx.log.info(
          `Owner sign-in link: not printed into logs; get one with ${loginLink}, or start with --print-login-link`,
        );
    }
    server.ctx.log.info(
      config.stripe ? "Billing: Stripe" : "Billing: off (no STRIPE_SECRET_KEY); every user has enterprise limits",
    );
  });

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
