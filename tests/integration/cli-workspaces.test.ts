// `linkprev workspaces list|create|switch` and the global --workspace: the CLI acts in the workspace chosen, through
// the SDK's calls with ?workspace= (docs/workspaces.md).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cliUser, runCli } from "../helpers/cli.ts";
import { startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let client: ApiClient;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer();
  ({ client, env } = await cliUser(server, "cliuser"));
});
afterAll(() => server.close());

const run = (args: string[]) => runCli(args, { env });

const slugsIn = async (workspace: string) =>
  ((await (await client.call(`/api/links?workspace=${workspace}`)).json()) as Array<{ linkSlug: string }>).map(
    (link) => link.linkSlug,
  );
const create = (slug: string, ...global: string[]) =>
  run([
    ...global,
    "links",
    "create",
    "--target",
    "https://example.com/",
    "--title",
    "t",
    "--description",
    "d",
    "--slug",
    slug,
  ]);

test("create, switch and --workspace: links land in the workspace chosen, and list marks it", async () => {
  const created = await run(["workspaces", "create", "crew", "--name", "The crew"]);
  expect(created).toMatchObject({
    code: 0,
    stdout: "Created crew (The crew); act in it with: linkprev workspaces switch crew\n",
  });
  expect((await create("mine")).code).toBe(0);
  expect((await create("once", "--workspace", "crew")).code).toBe(0);
  expect(await slugsIn("cliuser")).toEqual(["mine"]);
  expect(await slugsIn("crew")).toEqual(["once"]);

  expect((await run(["workspaces", "switch", "crew"])).code).toBe(0);
  const created2 = await create("team");
  expect(created2.stdout).toContain("/go/crew/team");
  expect((await slugsIn("crew")).sort()).toEqual(["once", "team"]);
  const listed = await run(["workspaces", "list"]);
  expect(listed.stdout.split("\n").filter((line) => line.startsWith("*"))).toEqual([
    expect.stringMatching(/^\*\s+crew\s+The crew\s+owner$/),
  ]);

  expect((await run(["workspaces", "switch", "cliuser"])).code).toBe(0);
  expect((await create("back")).stdout).toContain("/go/cliuser/back");
});

test("a workspace you do not belong to: switch refuses (exit 1), --workspace is the server's 404", async () => {
  const refused = await run(["workspaces", "switch", "elsewhere"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("You are not a member of a workspace elsewhere");
  const named = await run(["--workspace", "elsewhere", "links", "list"]);
  expect(named.code).toBe(1);
  expect(named.stderr).toContain("Workspace not found (HTTP 404)");
});
