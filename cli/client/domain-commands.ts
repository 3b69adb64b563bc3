// `linkprev domains …`: the signed-in user's custom domains, over /api/domains.
import type { Command } from "commander";
import { ok, type Schemas } from "../../packages/sdk/src/index.ts";
import { api, CliError } from "./http.ts";
import { example, json, out, table } from "./output.ts";
import { loadSettings } from "./settings.ts";

/** The domain's id from its hostname (as typed: the server normalises, this only lower-cases and drops a trailing dot). */
async function idOf(hostname: string): Promise<number> {
  const wanted = hostname.toLowerCase().replace(/\.$/, "");
  const { domains } = await api(loadSettings(), (client) => ok(client.GET("/api/domains")));
  const found = domains.find((domain) => domain.hostname === wanted);
  if (!found) throw new CliError(`No domain ${hostname} on this account: linkprev domains list`, 1);
  return found.id;
}

type Domain = Schemas["Domain"];

const records = (domain: Domain) =>
  table([["TYPE", "NAME", "VALUE"], ...domain.records.map((record) => [record.type, record.name, record.value])]);
const status = (domain: Domain) =>
  `${domain.hostname}: ${domain.status}${domain.reason ? ` (${domain.reason})` : ""}${domain.lastCheckedAt ? `, checked ${domain.lastCheckedAt}` : ""}`;

export function registerDomainCommands(program: Command): void {
  const domains = program
    .command("domains")
    .description("Add, list, verify and remove your custom domains")
    .addHelpText("after", example("linkprev domains list"));
  domains
    .command("add")
    .description("Add a custom domain; prints the DNS records to publish")
    .argument("<hostname>", "e.g. links.example.com")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev domains add links.example.com"))
    .action(async (hostname: string, options: { json?: boolean }) => {
      const domain = await api(loadSettings(), (client) => ok(client.POST("/api/domains", { body: { hostname } })));
      if (options.json) return void json(domain);
      out(
        `Added ${domain.hostname} (pending). Publish these records, then run linkprev domains verify ${domain.hostname}:\n${records(domain)}`,
      );
    });
  domains
    .command("list")
    .description("List your custom domains and their status")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev domains list"))
    .action(async (options: { json?: boolean }) => {
      const { domains: list } = await api(loadSettings(), (client) => ok(client.GET("/api/domains")));
      if (options.json) return void json(list);
      if (list.length === 0) return void out("No custom domains yet: linkprev domains add --help");
      out(
        table([
          ["HOSTNAME", "STATUS", "LINKS", "LAST CHECK", "REASON"],
          ...list.map((d) => [d.hostname, d.status, String(d.links), d.lastCheckedAt ?? "-", d.reason ?? ""]),
        ]),
      );
    });
  domains
    .command("verify")
    .description("Check a domain's DNS records now; prints its status and, unless verified, why")
    .argument("<hostname>", "one of your domains")
    .option("--json", "print JSON")
    .addHelpText("after", example("linkprev domains verify links.example.com"))
    .action(async (hostname: string, options: { json?: boolean }) => {
      const id = await idOf(hostname);
      const domain = await api(loadSettings(), (client) =>
        ok(client.POST("/api/domains/{id}/verify", { params: { path: { id } } })),
      );
      if (options.json) return void json(domain);
      out(domain.status === "pending" ? `${status(domain)}\nRecords to publish:\n${records(domain)}` : status(domain));
    });
  domains
    .command("remove")
    .description("Remove a custom domain (refused while links use it)")
    .argument("<hostname>", "one of your domains")
    .addHelpText("after", example("linkprev domains remove links.example.com"))
    .action(async (hostname: string) => {
      const id = await idOf(hostname);
      await api(loadSettings(), (client) => client.DELETE("/api/domains/{id}", { params: { path: { id } } }));
      out(`Removed ${hostname}`);
    });
}
