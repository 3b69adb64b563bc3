// An account deletion killed part-way (kill -9 from a tests-only hook, TEST_CRASH_DURING_DELETE_AFTER) is
// finished by the next start, and retrying it is harmless: every table ends clean and every file of the account's
// uploads is gone from the uploads folder, on either engine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { NOTHING_LEFT, rowsLeftOf, seedFullAccount, uploadFilesOf } from "../helpers/account.ts";
import { startNode, stopNode, type Node } from "../helpers/nodes.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { testEngine } from "../helpers/server.ts";
import { postgresTestDb, sqliteTestDb, type TestDb } from "../helpers/test-db.ts";

let stripe: FakeStripe;
beforeAll(() => {
  stripe = startFakeStripe();
});
afterAll(() => stripe.stop());

const PERSON = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};

describe.each(["mark", "announce", "stripe", "links", "access"])("killed right after the %s step", (step) => {
  let node: Node;
  let sql: TestDb;
  let databaseEnv: Record<string, string>;

  beforeAll(async () => {
    databaseEnv = testEngine === "postgres" ? { DATABASE_URL: await newTestDatabase() } : {};
    node = await startNode({ ...stripe.env, ...databaseEnv, TEST_CRASH_DURING_DELETE_AFTER: step });
    sql =
      testEngine === "postgres"
        ? postgresTestDb(databaseEnv.DATABASE_URL!)
        : sqliteTestDb(join(node.dataDir, "linkprev.db"));
  });
  afterAll(async () => {
    await sql.close();
    await stopNode(node, { signal: "SIGKILL" });
  });

  test("the next start finishes it, a retry is harmless, every table and the uploads folder are clean", async () => {
    const doomed = await seedFullAccount({ url: node.url, sql }, stripe, "doomed");
    const kept = await seedFullAccount({ url: node.url, sql }, stripe, "kept");
    const keptBefore = await rowsLeftOf(sql, kept.id);
    const keptFiles = await uploadFilesOf(node.url, kept);
    const uploadsFolder = () => readdirSync(join(node.dataDir, "uploads")).sort();
    expect(uploadsFolder()).toEqual([...(await uploadFilesOf(node.url, doomed)), ...keptFiles].sort());
    const remove = (url: string) =>
      fetch(`${url}/api/account`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${doomed.token}`, "content-type": "application/json" },
        body: JSON.stringify({ confirmEmail: doomed.email }),
      });

    // The process dies while answering.
    await expect(remove(node.url)).rejects.toThrow();
    expect(await node.child.exited).not.toBe(0);
    expect(node.child.signalCode).toBe("SIGKILL");
    // Part-way: the account is marked (signed out, off /go) but its row is still there.
    const marked = await sql.get<{ deleting_since: number | null }>(
      "SELECT deleting_since FROM users WHERE id = ?",
      doomed.id,
    );
    expect(marked?.deleting_since).not.toBeNull();

    const dataDir = node.dataDir;
    await stopNode(node, { keepData: true });
    node = await startNode({ ...stripe.env, ...databaseEnv }, dataDir);
    expect(await rowsLeftOf(sql, doomed.id)).toEqual(NOTHING_LEFT);
    const retry = await remove(node.url);
    expect(retry.status).toBe(401);
    expect(await rowsLeftOf(sql, doomed.id)).toEqual(NOTHING_LEFT);

    expect(stripe.subscriptions.get(doomed.subscriptionId)!.status).toBe("canceled");
    expect(
      await sql.get(
        "SELECT user_id, receipt_url FROM payments WHERE stripe_payment_intent_id = ?",
        doomed.paymentIntentId,
      ),
    ).toEqual({ user_id: null, receipt_url: null });
    // The user slug is retired for good (whether the crash came before the step that retires it or after).
    expect(
      (await fetch(`${node.url}/go/${doomed.userSlug}/${doomed.liveSlug}`, { redirect: "manual", headers: PERSON }))
        .status,
    ).toBe(410);
    expect(await sql.all("SELECT user_slug FROM retired_user_slugs")).toEqual([{ user_slug: doomed.userSlug }]);
    expect((await fetch(`${node.url}${doomed.imageUrl}`)).status).toBe(404);
    expect(uploadsFolder()).toEqual(keptFiles.sort());
    // The other account is whole.
    expect(await rowsLeftOf(sql, kept.id)).toEqual(keptBefore);
    expect((await fetch(`${node.url}${kept.imageUrl}`)).status).toBe(200);
    expect(stripe.subscriptions.get(kept.subscriptionId)!.status).toBe("active");
  });
});
