// `linkprev webhooks pause|resume`: the CLI holds and releases an endpoint's deliveries as PATCH paused does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cliUser, runCli } from "../helpers/cli.ts";
import { startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let client: ApiClient;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ FETCH_ALLOW_PRIVATE: "127.0.0.1/32" });
  ({ client, env } = await cliUser(server, "hooked"));
});
afterAll(() => server.close());

const run = (args: string[]) => runCli(args, { env });

const pausedNow = async (id: number) =>
  ((await (await client.call("/api/webhooks")).json()) as Array<{ id: number; paused: boolean }>).find(
    (e) => e.id === id,
  )?.paused;

test("pause holds an endpoint's deliveries and resume sends them again; list shows which", async () => {
  const created = await client.call("/api/webhooks", {
    method: "POST",
    json: { url: "http://127.0.0.1:9/hook", events: ["link.created"] },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const paused = await run(["webhooks", "pause", String(id)]);
  expect(paused).toMatchObject({
    code: 0,
    stdout: `Paused endpoint ${id}; its events wait until: linkprev webhooks resume ${id}\n`,
  });
  expect(await pausedNow(id)).toBe(true);
  expect((await run(["webhooks", "list"])).stdout).toMatch(new RegExp(`^${id} .*paused$`, "m"));

  const resumed = await run(["webhooks", "resume", String(id)]);
  expect(resumed).toMatchObject({ code: 0, stdout: `Resumed endpoint ${id}\n` });
  expect(await pausedNow(id)).toBe(false);
  expect((await run(["webhooks", "list"])).stdout).toMatch(new RegExp(`^${id} .*enabled$`, "m"));
});

test("an id that is not a number, or no endpoint of yours, is refused", async () => {
  expect(await run(["webhooks", "pause", "three"])).toMatchObject({
    code: 2,
    stderr: expect.stringContaining('An endpoint or delivery id is a number; got "three"'),
  });
  const missing = await run(["webhooks", "resume", "999999"]);
  expect(missing.code).not.toBe(0);
});
