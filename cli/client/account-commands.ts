// login, logout and whoami: which server and token the other client commands use.
import type { Command } from "commander";
import { ok } from "../../packages/sdk/src/index.ts";
import { ask } from "./ask.ts";
import { api, CliError, usageError } from "./http.ts";
import { example, json, out } from "./output.ts";
import { forgetSettings, loadSettings, saveSettings } from "./settings.ts";

export function registerAccountCommands(program: Command): void {
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
      const me = await api({ server, token }, (client) => ok(client.GET("/api/auth/user"))).catch((error: unknown) => {
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
      const me = await api(loadSettings(), (client) => ok(client.GET("/api/auth/user")));
      if (options.json) json(me);
      else out(`${me.email} (short URLs under /go/${me.userSlug}/) on ${loadSettings().server}`);
    });
}
