// An account deletion killed part-way (kill -9 from a tests-only hook, TEST_CRASH_DURING_DELETE_AFTER) is
// finished by the next start, and retrying it is harmless: every table ends clean and every file of the account's
// uploads is gone from the uploads folder, on either engine.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { NOTHING_LEFT, rowsLeftOf, seedFullAccount, uploadFilesOf } from "../helpers/account.ts";
import { describeEachDeletionCrash } from "../helpers/deletion-crash.ts";

const PERSON = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};

describeEachDeletionCrash((crashing) => {
  test("the next start finishes it, a retry is harmless, every table and the uploads folder are clean", async () => {
    const { sql, stripe } = crashing;
    const doomed = await seedFullAccount({ url: crashing.node.url, sql }, stripe, "doomed");
    const kept = await seedFullAccount({ url: crashing.node.url, sql }, stripe, "kept");
    const keptBefore = await rowsLeftOf(sql, kept.id);
    const keptFiles = await uploadFilesOf(crashing.node.url, kept);
    const uploadsFolder = () => readdirSync(join(crashing.node.dataDir, "uploads")).sort();
    expect(uploadsFolder()).toEqual([...(await uploadFilesOf(crashing.node.url, doomed)), ...keptFiles].sort());
    const remove = (url: string) =>
      fetch(`${url}/api/account`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${doomed.token}`, "content-type": "application/json" },
        body: JSON.stringify({ confirmEmail: doomed.email }),
      });

    // The process dies while answering.
    await crashing.crash(remove(crashing.node.url));
    // Part-way: the account is marked (signed out, off /go) but its row is still there.
    const marked = await sql.get<{ deleting_since: number | null }>(
      "SELECT deleting_since FROM users WHERE id = ?",
      doomed.id,
    );
    expect(marked?.deleting_since).not.toBeNull();

    await crashing.restart();
    const { node } = crashing;
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
