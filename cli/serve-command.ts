// linkprev serve: starts the server, stores its address for the admin commands, and says how to sign in.
import type { Command } from "commander";
import { ownerHasSignedIn, ownerLoginLink } from "../src/admin/access.ts";
import { removeServerAddress, writeServerAddress } from "../src/start/server-address.ts";
import { storageLines } from "../src/start/start-banner.ts";
import { CliError } from "./client/http.ts";
import { configFrom, type DataOptions } from "./data-options.ts";

/** `text` as one shell word: as it is when it is plain, else single-quoted. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

export function registerServeCommand(program: Command): void {
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
}
