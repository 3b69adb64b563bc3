// `linkprev workspaces …`: the workspaces you belong to, a new team workspace, which one later commands act in
// (docs/workspaces.md), and that workspace's members and invites (docs/decisions/0065). The global --workspace names
// one for a single command.
import type { Command } from "commander";
import { ok } from "../../packages/sdk/src/index.ts";
import { ROLES } from "../../src/workspaces/model.ts";
import { api, CliError, usageError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings, saveWorkspace } from "./settings.ts";

/** The id of the workspace commands act in: the one --workspace or `switch` chose, else the token's own (the first). */
async function actingWorkspaceId(): Promise<number> {
  const settings = loadSettings();
  const list = await api({ ...settings, workspace: undefined }, (client) => ok(client.GET("/api/workspaces")));
  const found = settings.workspace === undefined ? list[0] : list.find((w) => w.slug === settings.workspace);
  if (!found)
    throw new CliError(`You are not a member of a workspace ${settings.workspace}: linkprev workspaces list`, 1);
  return found.id;
}

export function registerWorkspaceCommands(program: Command): void {
  const workspaces = program
    .command("workspaces")
    .description("List your workspaces, create a team workspace, switch the one commands act in")
    .addHelpText("after", example("linkprev workspaces list"));
  workspaces
    .command("list")
    .description("The workspaces you belong to and your role in each; * marks the one commands act in")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const settings = loadSettings();
      // Listed without naming one: the list is the same from every workspace.
      const list = await api({ ...settings, workspace: undefined }, (client) => ok(client.GET("/api/workspaces")));
      if (options.json) return void json(list);
      const current = settings.workspace ?? list[0]?.slug;
      out(
        table([
          ["", "SLUG", "NAME", "ROLE"],
          ...list.map((w) => [w.slug === current ? "*" : "", w.slug, w.name, w.role]),
        ]),
      );
    });
  workspaces
    .command("create")
    .description("Create a team workspace (you are its owner); its links are served at /go/<slug>/<link>")
    .argument("<slug>", "the first part of its short URLs (letters, digits, - and _; at most 20)")
    .requiredOption("--name <name>", "its name")
    .option("--json", "print JSON")
    .addHelpText("after", example('linkprev workspaces create acme --name "Acme marketing"'))
    .action(async (slug: string, options: { name: string; json?: boolean }) => {
      const created = await api({ ...loadSettings(), workspace: undefined }, (client) =>
        ok(client.POST("/api/workspaces", { body: { slug, name: options.name } })),
      );
      if (options.json) return void json(created);
      out(`Created ${created.slug} (${created.name}); act in it with: linkprev workspaces switch ${created.slug}`);
    });
  workspaces
    .command("switch")
    .description("Act in this workspace from now on (your personal one: its slug, your user slug)")
    .argument("<slug>", "a workspace you belong to (linkprev workspaces list)")
    .addHelpText("after", example("linkprev workspaces switch acme"))
    .action(async (slug: string) => {
      const list = await api({ ...loadSettings(), workspace: undefined }, (client) =>
        ok(client.GET("/api/workspaces")),
      );
      const found = list.find((w) => w.slug === slug.toLowerCase());
      if (!found) throw new CliError(`You are not a member of a workspace ${slug}: linkprev workspaces list`, 1);
      // The first is the personal one: switching back to it forgets the choice.
      const path = saveWorkspace(found === list[0] ? undefined : found.slug);
      out(`Now acting in ${found.slug} (${found.name}, ${found.role}); saved in ${path}`);
    });
  workspaces
    .command("members")
    .description("The members of the workspace commands act in, and their roles")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev --workspace acme workspaces members"))
    .action(async (options: { json?: boolean }) => {
      const id = await actingWorkspaceId();
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
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev --workspace acme workspaces invite ana@example.com --role admin"))
    .action(async (email: string, options: { role: string; json?: boolean }) => {
      const role = ROLES.find((each) => each === options.role);
      if (!role) throw usageError(`--role is one of ${ROLES.join(", ")}; got "${options.role}"`);
      const id = await actingWorkspaceId();
      const invite = await api(loadSettings(), (client) =>
        ok(client.POST("/api/workspaces/{id}/invites", { params: { path: { id } }, body: { email, role } })),
      );
      if (options.json) return void json(invite);
      out(`Invited ${invite.email} as ${invite.role}, until ${invite.expiresAt}.`);
      out(`Accept URL (shown once; e-mailed too when the server sends mail): ${invite.url}`);
    });
}
