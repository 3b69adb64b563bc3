// the request thread answers /go while an app worker is busy with a page. A handler that holds its
// thread for 2 s (TEST_SLOW_ROUTE_MS, as a heavy dashboard render would) is started first; /go requests sent while
// it runs must all be answered before it is. With APP_WORKERS=0 (everything on one thread) they wait behind it:
// the control case shows the assertion can fail.
import { afterAll, expect, test } from "bun:test";
import { SLOW_ROUTE_STARTED } from "../../src/meta/routes.ts";
import { crawlerAgents, seedLink, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

const HOLD_MS = 2000;
const person = { "user-agent": crawlerAgents.people["firefox-linux"]! };
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** Resolves when the slow route on `port` has begun holding its thread. */
function slowRouteStarted(port: number): Promise<void> {
  const channel = new BroadcastChannel(SLOW_ROUTE_STARTED);
  return new Promise((resolve) => {
    channel.onmessage = (event: MessageEvent<number>) => {
      if (event.data !== port) return;
      channel.close();
      resolve();
    };
  });
}

/** Starts the slow request, then sends /go requests one after another while it runs; what finished first. */
async function goWhileBusy(env: Record<string, string>) {
  const server = await startTestServer({ TEST_SLOW_ROUTE_MS: String(HOLD_MS), ...env });
  servers.push(server);
  const user = await seedUser(server.sql, { userSlug: "busy" });
  await seedLink(server.sql, user.id, { linkSlug: "link", targetUrl: "https://example.com/busy" });
  await fetch(`${server.url}/go/busy/link`, { redirect: "manual", headers: person }); // cached from here on

  const finished: string[] = [];
  const started = slowRouteStarted(server.port);
  const slow = fetch(`${server.url}/api/test/slow`).then(async (response) => {
    expect(response.status).toBe(200);
    finished.push("page");
  });
  await started; // the page is being rendered now
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}/go/busy/link`, { redirect: "manual", headers: person });
    latencies.push(performance.now() - started);
    expect(response.headers.get("location")).toBe("https://example.com/busy");
    finished.push("go");
  }
  await slow;
  return { finished, latencies };
}

test("/go is answered while an app worker holds its thread for a page", async () => {
  const { finished, latencies } = await goWhileBusy({ APP_WORKERS: "1" });
  console.log(
    `/go while a page holds a worker for ${HOLD_MS} ms: ${latencies.map((ms) => ms.toFixed(1)).join(", ")} ms`,
  );
  expect(finished).toEqual(["go", "go", "go", "go", "go", "page"]);
});

test("control: with APP_WORKERS=0 the same /go waits behind the page", async () => {
  const { finished } = await goWhileBusy({ APP_WORKERS: "0" });
  expect(finished).toEqual(["page", "go", "go", "go", "go", "go"]);
});
