// `linkprev workspaces members|invite`: a workspace's members and invites, over /api/workspaces (docs/cli.md).
import type { Command } from "commander";
import { ok } from "../../packages/sdk/src/index.ts";
import { ROLES } from "../../src/workspaces/model.ts";
import { api, CliError, usageError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

/** The workspace named by its slug, or the first one the token may act in (its own, or the personal one). */
async function workspaceId(slug: string | undefined): Promise<number> {
  const list = await api(loadSettings(), (client) => ok(client.GET("/api/workspaces")));
  const found = slug === undefined ? list[0] : list.find((workspace) => workspace.slug === slug.toLowerCase());
  if (!found) throw new CliError(`No workspace ${slug} among yours: ${list.map((w) => w.slug).join(", ")}`, 1);
  return found.id;
}

const WORKSPACE_OPTION = ["--workspace <slug>", "the workspace (default: your token's)"] as const;

export function registerWorkspaceCommands(program: Command): void {
  const workspaces = program.command("workspaces").description("A workspace's members and invites");
  workspaces
    .command("members")
    .description("List the workspace's members and their roles")
    .option(...WORKSPACE_OPTION)
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev workspaces members --workspace acme"))
    .action(async (options: { workspace?: string; json?: boolean }) => {
      const id = await workspaceId(options.workspace);
      const members = await api(loadSettings(), (client) =>
        ok(client.GET("/api/workspaces/{id}/members", { params: { path: { id } } })),
      );
      if (options.json) return void json(members);
      out(table([["USER", "EMAIL", "ROLE"], ...members.map((m) => [String(m.userId), m.email, m.role])]));
    });
  workspaces
    .command("invite")
    .description("Invite someone by e-mail; prints the accept URL (valid 14 days, once, for that address)")
    .argument("<email>", "the address to invite")
    .option("--role <role>", `one of ${ROLES.join(", ")}`, "member")
    .option(...WORKSPACE_OPTION)
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev workspaces invite ana@example.com --role admin --workspace acme"))
    .action(async (email: string, options: { role: string; workspace?: string; json?: boolean }) => {
      const role = ROLES.find((each) => each === options.role);
      if (!role) throw usageError(`--role is one of ${ROLES.join(", ")}; got "${options.role}"`);
      const id = await workspaceId(options.workspace);
      const invite = await api(loadSettings(), (client) =>
        ok(client.POST("/api/workspaces/{id}/invites", { params: { path: { id } }, body: { email, role } })),
      );
      if (options.json) return void json(invite);
      out(`Invited ${invite.email} as ${invite.role}, until ${invite.expiresAt}.`);
      out(`Accept URL (shown once; e-mailed too when the server sends mail): ${invite.url}`);
    });
}
