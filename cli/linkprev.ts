#!/usr/bin/env bun
// The one executable: `serve`, the `admin` commands that work on a data directory, and (later) client commands.
import { Command } from "commander";
import { ConfigError, loadConfig, type ConfigOverrides } from "../src/config.ts";
import { startServer } from "../src/server.ts";

const program = new Command()
  .name("linkprev")
  .description("Custom link previews with short URLs: server, admin and client in one executable.")
  .showHelpAfterError();

function configFrom(options: { port?: string; host?: string; data?: string }) {
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
  .action(async (options) => {
    const config = configFrom(options);
    const server = await startServer(config);
    console.log(`LinkPrev listening on ${server.url} (public URL ${config.publicUrl}, data in ${config.dataDir})`);
    const shutdown = async (signal: string) => {
      console.log(`${signal}: storing buffered views and stopping`);
      await server.stop();
      process.exit(0);
    };
    process.once("SIGINT", () => void shutdown("SIGINT"));
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
  });

await program.parseAsync(process.argv);
