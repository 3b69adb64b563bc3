#!/usr/bin/env bun
// The one executable: `serve`, the `admin` commands that work on a data directory, and the client commands.
import { Command } from "commander";
import { apiTokenFor, loginLinkFor, openDataDir, ownerLoginLink } from "../src/admin.ts";
import { ConfigError, loadConfig, type ConfigOverrides } from "../src/config.ts";
import { startServer } from "../src/server.ts";

const program = new Command()
  .name("linkprev")
  .description("Custom link previews with short URLs: server, admin and client in one executable.")
  .showHelpAfterError();

type DataOptions = { port?: string; host?: string; data?: string };

function configFrom(options: DataOptions) {
  const overrides: ConfigOverrides = { PORT: options.port, HOST: options.host, DATA_DIR: options.data };
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
  .addHelpText("after", "\nExample:\n  linkprev serve --port 8080 --data /var/lib/linkprev")
  .action(async (options: DataOptions) => {
    const config = configFrom(options);
    const server = await startServer(config);
    console.log(`LinkPrev listening on ${server.url} (public URL ${config.publicUrl}, data in ${config.dataDir})`);
    if (config.google) console.log("Sign-in: Google");
    else {
      console.log("Sign-in: Google is not configured; sign in with a one-time link (linkprev admin login-link --email E).");
      console.log(`Owner sign-in link (one use, 15 minutes): ${ownerLoginLink(server.ctx.db, config.publicUrl)}`);
    }
    console.log(config.stripe ? "Billing: Stripe" : "Billing: off (no STRIPE_SECRET_KEY); every user has enterprise limits");
    const shutdown = async (signal: string) => {
      console.log(`${signal}: storing buffered views and stopping`);
      await server.stop();
      process.exit(0);
    };
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
  });

const admin = program.command("admin").description("Work on a data directory directly (run on the server's machine)");

admin
  .command("login-link")
  .description("Print a one-time sign-in link (15 minutes) for an e-mail, creating the user if needed")
  .requiredOption("--email <email>", "the user's e-mail")
  .option("--name <name>", "the user's full name, for a new user")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin login-link --email ana@example.com --name 'Ana Silva'")
  .action((options: DataOptions & { email: string; name?: string }) => {
    const config = configFrom(options);
    const { db, sqlite } = openDataDir(config);
    console.log(loginLinkFor(db, config.publicUrl, options.email, options.name));
    sqlite.close();
  });

admin
  .command("token")
  .description("API tokens")
  .command("create")
  .description("Print a new API token for an e-mail, creating the user if needed (shown once)")
  .requiredOption("--email <email>", "the user's e-mail")
  .option("--name <name>", "a name for the token", "cli")
  .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
  .addHelpText("after", "\nExample:\n  linkprev admin token create --email ana@example.com --name laptop")
  .action((options: DataOptions & { email: string; name: string }) => {
    const config = configFrom(options);
    const { db, sqlite } = openDataDir(config);
    console.log(apiTokenFor(db, options.email, options.name));
    sqlite.close();
  });

await program.parseAsync(process.argv);
