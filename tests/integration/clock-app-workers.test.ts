// A test's clock reaches the app workers (src/start/app-workers.ts): each worker starts at the clock's time and
// follows every move before the next request. A session is checked in the worker against that time, so its
// answer says which clock the worker read: one valid at the test clock's time but expired at the system's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { generateSecret, hashSecret } from "../../src/auth/tokens.ts";
import { TestClock } from "../helpers/clock.ts";
import { seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

const DAY = 86_400_000;
// Twenty days behind: the session below has 19 of its days left (no renewal, which comes in the last 15).
const clock = new TestClock(Date.now() - 20 * DAY);
let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({ APP_WORKERS: "2" }, clock);
  const { id } = await seedUser(server.sql);
  const token = generateSecret();
  // Expired yesterday by the system clock.
  await server.sql.run(
    "INSERT INTO sessions (sid, user_id, sess, expire) VALUES (?, ?, ?, ?)",
    hashSecret(token),
    id,
    JSON.stringify({ userId: id, createdAt: clock.now() }),
    new Date(Date.now() - DAY),
  );
  cookie = `lp_session=${token}`;
});
afterAll(() => server?.close());

/** The statuses of four requests sent together, which the pool spreads over both workers (the least busy first). */
const statuses = () =>
  Promise.all(
    Array.from({ length: 4 }, async () => (await fetch(`${server.url}/api/links`, { headers: { cookie } })).status),
  );

test("the app workers read the test clock's time from their start", async () => {
  expect(await statuses()).toEqual([200, 200, 200, 200]);
});

test("after the test moves the clock past the session's end, every worker refuses it", async () => {
  clock.advance(20 * DAY);
  expect(await statuses()).toEqual([401, 401, 401, 401]);
});
