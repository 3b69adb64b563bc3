// The CLI's comforts: shell completion generated from the command tree, and `links stats` drawn as a chart for a
// person while a pipe or --json still gets data.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cliUser, runCli } from "../helpers/cli.ts";
import { crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const run = (args: string[], env: Record<string, string> = {}, wrap?: (command: string[]) => string[]) =>
  runCli(args, { env, wrap });

describe("completion", () => {
  test("bash: valid syntax, and it completes commands, subcommands and options", async () => {
    const { code, stdout } = await run(["completion", "bash"]);
    expect(code).toBe(0);
    const check = Bun.spawnSync(["bash", "-n"], { stdin: new TextEncoder().encode(stdout) });
    expect(check.exitCode).toBe(0);
    const complete = (...words: string[]) => {
      const script = `${stdout}\nCOMP_WORDS=(linkprev ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; _linkprev_complete; echo "\${COMPREPLY[*]}"`;
      return Bun.spawnSync(["bash", "-c", script]).stdout.toString().trim().split(" ").sort();
    };
    expect(complete("")).toEqual(expect.arrayContaining(["serve", "admin", "links", "login", "completion"]));
    expect(complete("links", "s")).toEqual(["show", "stats"]);
    expect(complete("links", "stats", "myslug", "--")).toEqual(["--chart", "--days", "--help", "--json"]);
    expect(complete("admin", "token", "")).toEqual(["--help", "create"]);
  });

  test("zsh and fish list every command with its description", async () => {
    const zsh = (await run(["completion", "zsh"])).stdout;
    const fish = (await run(["completion", "fish"])).stdout;
    expect(zsh).toStartWith("#compdef linkprev");
    for (const command of ["serve", "links", "completion"]) expect(zsh).toContain(`'${command}:`);
    expect(zsh).toContain("' links stats'");
    expect(fish).toContain(
      "-a 'stats' -d 'Views per day (human, bot), daily unique visitors, QR code scans, and the platforms that fetched the card'",
    );
    expect(fish).toContain("-l 'chart'");
  });

  test("an unknown shell is a usage error", async () => {
    const { code, stderr } = await run(["completion", "tcsh"]);
    expect(code).toBe(2);
    expect(stderr).toContain("bash, zsh, fish");
  });
});

describe("links stats", () => {
  let server: TestServer;
  let client: ApiClient;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer();
    ({ client, env } = await cliUser(server, "charted"));
    expect(
      (
        await client.call("/api/links", {
          method: "POST",
          json: { title: "Charted", description: "d", targetUrl: "https://example.com/", customLinkSlug: "charted" },
        })
      ).status,
    ).toBe(201);
    const go = (agent: string) =>
      fetch(`${server.url}/go/charted/charted`, { headers: { "user-agent": agent }, redirect: "manual" }).then((r) =>
        r.arrayBuffer(),
      );
    for (let i = 0; i < 5; i++) await go(crawlerAgents.people["firefox-linux"]!);
    for (let i = 0; i < 3; i++) await go(crawlerAgents.crawlers.slack![0]!);
    await go(crawlerAgents.crawlers.discord![0]!);
    await server.flushViews();
  });
  afterAll(() => server.close());

  test("forced (--chart) it draws a sparkline per series with min, max and total, and the platforms beside", async () => {
    const { code, stdout } = await run(["links", "stats", "charted", "--days", "7", "--chart"], env);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^People {3}·{6}█ {2}min 0 · max 5 · total 5 +Slack +3$/);
    expect(lines[3]).toMatch(/^Crawlers ·{6}█ {2}min 0 · max 4 · total 4 +Discord +1$/);
    expect(lines[1]).toContain("Crawlers by platform");
  });

  test("piped it prints one row per day as before, and --json stays JSON", async () => {
    const piped = (await run(["links", "stats", "charted", "--days", "7"], env)).stdout;
    expect(piped).not.toContain("█");
    expect(piped.split("\n").filter((line) => /^\d{4}-\d{2}-\d{2}/.test(line))).toHaveLength(7);
    const json = JSON.parse((await run(["links", "stats", "charted", "--days", "7", "--json"], env)).stdout);
    expect(json.days).toHaveLength(7);
    expect(json.days.at(-1)).toMatchObject({ human: 5, bot: 4 });
    expect(json.platforms).toEqual([
      { platform: "slack", count: 3 },
      { platform: "discord", count: 1 },
    ]);
  });

  test("on a terminal (a pseudo-TTY, by script(1)) it draws the chart unasked", async () => {
    const inTerminal = (command: string[]) => [
      "script",
      "-qec",
      command.map((word) => `'${word}'`).join(" "),
      "/dev/null",
    ];
    const { code, stdout } = await run(["links", "stats", "charted", "--days", "7"], env, inTerminal);
    expect(code).toBe(0);
    expect(stdout).toContain("People   ······█");
  });
});
