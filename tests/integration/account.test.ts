// a user's copy of their data, and deleting the account, against a fake Stripe and a fake Google.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startFakeGoogle, type FakeGoogle } from "../fakes/google.ts";
import { startFakeS3 } from "../fakes/s3.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { NOTHING_LEFT, rowsLeftOf, seedFullAccount, uploadFilesOf, type SeededAccount } from "../helpers/account.ts";
import { Browser } from "../helpers/browser.ts";
import { recordHealth } from "../../src/rules/record-health.ts";
import { startTestServer, testEngine, type TestServer } from "../helpers/server.ts";

let stripe: FakeStripe;
let google: FakeGoogle;
let server: TestServer;

beforeAll(async () => {
  stripe = startFakeStripe();
  google = startFakeGoogle();
  // On PostgreSQL, images in the database (UPLOADS_STORE=db): the deletion goes through whichever store holds them.
  server = await startTestServer({
    ...stripe.env,
    ...google.env,
    AUTH_RATE_LIMIT: "10000",
    ...(testEngine === "postgres" ? { UPLOADS_STORE: "db" } : {}),
  });
});
afterAll(async () => {
  await server.close();
  stripe.stop();
  google.stop();
});

/** A person's browser: /go answers with a redirect. */
const PERSON = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};
const visit = (url: string) => fetch(url, { redirect: "manual", headers: PERSON });

const bearer = (account: SeededAccount) => ({ authorization: `Bearer ${account.token}` });

function browserOf(account: SeededAccount): Browser {
  const browser = new Browser(server.url);
  browser.cookies.set("lp_session", account.sessionToken);
  return browser;
}

describe("GET /api/account/export", () => {
  test("holds every entity of the user and nothing of another user", async () => {
    const alice = await seedFullAccount(server, stripe, "alice");
    const bob = await seedFullAccount(server, stripe, "bob");
    const response = await fetch(`${server.url}/api/account/export`, { headers: bearer(alice) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="linkprev-export-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    const text = await response.text();
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({
      email: alice.email,
      userSlug: alice.userSlug,
      stripeCustomerId: `cus_seeded_${alice.id}`,
    });
    expect(data.consents).toHaveLength(1);
    expect(data.subscriptions.map((s: { stripeSubscriptionId: string }) => s.stripeSubscriptionId)).toEqual([
      alice.subscriptionId,
    ]);
    expect(data.payments).toMatchObject([
      { stripePaymentIntentId: alice.paymentIntentId, amount: 1900, currency: "eur" },
    ]);
    expect(data.apiTokens).toMatchObject([{ name: "alice token" }]);
    expect(data.webhookEndpoints).toMatchObject([
      { url: "https://hooks.example.com/alice", description: "alice hooks", events: ["link.created"], enabled: false },
    ]);
    expect(text).not.toContain("whsec_");
    const slugs = data.links.map((l: { linkSlug: string; deleted: boolean }) => [l.linkSlug, l.deleted]);
    expect(slugs).toEqual([
      [alice.liveSlug, false],
      [alice.deletedSlug, true],
    ]);
    expect(data.links[0].shortUrl).toBe(`${server.url}/go/${alice.userSlug}/${alice.liveSlug}`);
    expect(data.links[0].imageUrl).toBe(alice.imageUrl);
    expect(data.links[0].qrStyle).toMatchObject({ shape: "dots", fg: "#000000" });
    expect(data.links[1].qrStyle).toBeNull();
    expect(data.qrStyle.style).toMatchObject({ fg: "#1a237e", logo: true });
    expect(data.qrStyle.logo).toMatchObject({
      width: 1,
      height: 1,
      png: expect.stringMatching(/^data:image\/png;base64,/),
    });
    expect(
      data.dailyViews.map((r: { platform: string; human: number; bot: number }) => [r.platform, r.human, r.bot]),
    ).toEqual([
      ["", 3, 0],
      ["facebook", 0, 2],
    ]);
    expect(data.dailyReferrers.map((r: { host: string; human: number }) => [r.host, r.human])).toEqual([
      ["", 1],
      ["alice.example.net", 2],
    ]);
    expect(data.views).toHaveLength(2);
    expect(data.views[0]).toMatchObject({ address: "203.0.113.0", userAgent: alice.userAgent, isBot: false });
    // Nothing of Bob's, anywhere in the document.
    for (const his of [
      bob.email,
      bob.userSlug,
      bob.subscriptionId,
      bob.paymentIntentId,
      bob.userAgent,
      bob.liveSlug,
      "bob token",
      "bob.example.net",
    ])
      expect(text).not.toContain(his);
    // No secrets either: token hashes are not exported.
    expect(text).not.toContain("tokenHash");
  });

  test("each link carries its rules and health as the API shows them, and never the password's hash", async () => {
    const dana = await seedFullAccount(server, stripe, "dana");
    const rules = {
      expiresAt: "2030-01-01T00:00:00.000Z",
      maxClicks: 50,
      expiredUrl: "https://dana.example/over",
      password: "open sesame",
      rules: [{ when: { device: "ios" }, targetUrl: "https://apps.example/dana" }],
    };
    const created = await fetch(`${server.url}/api/links`, {
      method: "POST",
      headers: { ...bearer(dana), "content-type": "application/json" },
      body: JSON.stringify({
        targetUrl: "https://dana.example/",
        title: "Ruled",
        description: "D",
        customLinkSlug: "ruled",
        ...rules,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const { database, publicUrl } = server.ctx.links;
    for (let i = 0; i < 2; i++)
      await recordHealth(
        { database, publicUrl },
        {
          linkId: id,
          ok: false,
          checkedUrl: "https://apps.example/dana",
          httpStatus: 404,
          finalUrl: "https://apps.example/dana",
          at: new Date("2026-11-25T12:00:00Z"),
        },
      );

    const text = await (await fetch(`${server.url}/api/account/export`, { headers: bearer(dana) })).text();
    const exported = (JSON.parse(text) as { links: Array<Record<string, unknown>> }).links;
    expect(exported.find((link) => link.id === id)).toMatchObject({
      expiresAt: rules.expiresAt,
      maxClicks: 50,
      expiredUrl: rules.expiredUrl,
      hasPassword: true,
      rules: rules.rules,
      health: {
        status: "broken",
        httpStatus: 404,
        finalUrl: "https://apps.example/dana",
        failedUrl: "https://apps.example/dana",
        checkedAt: "2026-11-25T12:00:00.000Z",
      },
    });
    // A link without rules says so in the same fields.
    expect(exported.find((link) => link.linkSlug === dana.liveSlug)).toMatchObject({
      expiresAt: null,
      maxClicks: null,
      expiredUrl: null,
      hasPassword: false,
      rules: [],
      health: { status: "unchecked" },
    });
    expect(text).not.toContain("argon2");
    expect(text).not.toContain("passwordHash");
    expect(text).not.toContain("open sesame");
  });

  test("needs a signed-in user", async () => {
    expect((await fetch(`${server.url}/api/account/export`)).status).toBe(401);
  });
});

describe("GET /api/links/export.csv", () => {
  test("the live links, quoted, with formulas defused", async () => {
    const carol = await seedFullAccount(server, stripe, "carol");
    const create = await fetch(`${server.url}/api/links`, {
      method: "POST",
      headers: { ...bearer(carol), "content-type": "application/json" },
      body: JSON.stringify({
        targetUrl: "https://example.com/q",
        title: '=HYPERLINK("http://evil")',
        description: '-2+3, "quoted"\nnext line',
        customLinkSlug: "formula",
      }),
    });
    expect(create.status).toBe(201);
    const response = await fetch(`${server.url}/api/links/export.csv`, { headers: bearer(carol) });
    expect(response.headers.get("content-type")).toStartWith("text/csv");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="linkprev-links-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const csv = await response.text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe(
      '"slug","short URL","target","title","description","image URL","created","human views","bot views"',
    );
    expect(csv).toContain(
      `"formula","${server.url}/go/${carol.userSlug}/formula","https://example.com/q","'=HYPERLINK(""http://evil"")","'-2+3, ""quoted""\nnext line",""`,
    );
    expect(csv).toContain(
      `"${carol.liveSlug}","${server.url}/go/${carol.userSlug}/${carol.liveSlug}","https://example.com/carol","carol live","The carol card","${carol.imageUrl}",`,
    );
    expect(csv).toMatch(new RegExp(`"${carol.liveSlug}",.*,"3","2"\\r\\n`));
    // Deleted links are in the JSON export, not here.
    expect(csv).not.toContain(carol.deletedSlug);
  });
});

describe("DELETE /api/account", () => {
  test("a wrong or missing confirmation is a 400 and deletes nothing", async () => {
    const dan = await seedFullAccount(server, stripe, "dan");
    const before = await rowsLeftOf(server.sql, dan.id);
    for (const body of [{ confirmEmail: "someone@example.com" }, {}, { confirmEmail: "" }]) {
      const response = await browserOf(dan).fetch("/api/account", { method: "DELETE", json: body });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(
        "Type the e-mail address of this account to confirm the deletion",
      );
    }
    expect(await rowsLeftOf(server.sql, dan.id)).toEqual(before);
    expect(stripe.subscriptions.get(dan.subscriptionId)!.status).toBe("active");
  });

  test("a cross-site request with the cookie is refused", async () => {
    const erin = await seedFullAccount(server, stripe, "erin");
    const response = await browserOf(erin).fetch("/api/account", {
      method: "DELETE",
      json: { confirmEmail: erin.email },
      headers: { origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    expect((await rowsLeftOf(server.sql, erin.id)).users).toBe(1);
  });

  test("removes every row and file of the user, cancels Stripe, keeps payments detached, retires the links (410), signs out", async () => {
    const frank = await seedFullAccount(server, stripe, "frank");
    const other = await seedFullAccount(server, stripe, "other");
    const otherBefore = await rowsLeftOf(server.sql, other.id);
    const shortUrl = `${server.url}/go/${frank.userSlug}/${frank.liveSlug}`;
    // Cached on /go first: the deletion must reach the cache too.
    expect((await visit(shortUrl)).status).toBe(302);
    expect((await fetch(`${server.url}${frank.imageUrl}`)).status).toBe(200);

    const browser = browserOf(frank);
    const response = await browser.fetch("/api/account", {
      method: "DELETE",
      json: { confirmEmail: frank.email.toUpperCase() },
    });
    expect(response.status).toBe(204);
    expect(browser.cookies.has("lp_session")).toBe(false);

    expect(await rowsLeftOf(server.sql, frank.id)).toEqual(NOTHING_LEFT);
    expect(stripe.subscriptions.get(frank.subscriptionId)!.status).toBe("canceled");
    const kept = await server.sql.get<Record<string, unknown>>(
      "SELECT * FROM payments WHERE stripe_payment_intent_id = ?",
      frank.paymentIntentId,
    );
    expect(kept).toMatchObject({
      user_id: null,
      amount: 1900,
      currency: "eur",
      status: "paid",
      stripe_invoice_id: "in_frank",
      payment_method: null,
      receipt_url: null,
    });
    expect((await visit(shortUrl)).status).toBe(410);
    expect((await fetch(`${server.url}${frank.imageUrl}`)).status).toBe(404);
    // The API token and the session are dead.
    expect((await fetch(`${server.url}/api/links`, { headers: bearer(frank) })).status).toBe(401);
    expect((await browser.fetch("/api/links")).status).toBe(401);
    // The other user is untouched.
    expect(await rowsLeftOf(server.sql, other.id)).toEqual(otherBefore);
    expect(stripe.subscriptions.get(other.subscriptionId)!.status).toBe("active");
    expect((await visit(`${server.url}/go/${other.userSlug}/${other.liveSlug}`)).status).toBe(302);
    expect((await fetch(`${server.url}${other.imageUrl}`)).status).toBe(200);

    // A sign-in with the same e-mail starts a new, empty account.
    const again = new Browser(server.url);
    google.signInAs({
      sub: `sub-${crypto.randomUUID()}`,
      email: frank.email,
      email_verified: true,
      given_name: "Frank",
    });
    await again.navigate("/api/auth/google");
    const me = await (await again.fetch("/api/auth/user")).json();
    expect(me.email).toBe(frank.email);
    expect(me.id).not.toBe(frank.id);
    expect(await (await again.fetch("/api/links")).json()).toEqual([]);
    expect(await (await again.fetch("/api/subscriptions/active")).json()).toMatchObject({ active: false });
  });

  test("with an API token (the CLI) it works the same and is safe to send twice", async () => {
    const gina = await seedFullAccount(server, stripe, "gina");
    const remove = () =>
      fetch(`${server.url}/api/account`, {
        method: "DELETE",
        headers: { ...bearer(gina), "content-type": "application/json" },
        body: JSON.stringify({ confirmEmail: gina.email }),
      });
    expect((await remove()).status).toBe(204);
    expect(await rowsLeftOf(server.sql, gina.id)).toEqual(NOTHING_LEFT);
    expect((await remove()).status).toBe(401);
  });

  test("an account a failure left marked is signed out, and the retry of its deletion finishes it", async () => {
    const hank = await seedFullAccount(server, stripe, "hank");
    // What a deletion that stopped after its first step leaves (the crash test kills a real process there).
    await server.sql.run("UPDATE users SET deleting_since = ? WHERE id = ?", new Date(), hank.id);
    expect((await fetch(`${server.url}/api/links`, { headers: bearer(hank) })).status).toBe(401);
    const retry = await browserOf(hank).fetch("/api/account", { method: "DELETE", json: {} });
    expect(retry.status).toBe(204);
    expect(await rowsLeftOf(server.sql, hank.id)).toEqual(NOTHING_LEFT);
    expect(stripe.subscriptions.get(hank.subscriptionId)!.status).toBe("canceled");
  });
});

/** Deletes one of two accounts on a server with this store: of the uploads, only the other account's files are left. */
async function deleteAccountOnStore(
  env: Record<string, string>,
  storedNames: (started: TestServer) => Promise<string[]>,
): Promise<void> {
  const started = await startTestServer({ ...stripe.env, ...env });
  try {
    const ivy = await seedFullAccount(started, stripe, "ivy");
    const other = await seedFullAccount(started, stripe, "otto");
    const ivyFiles = await uploadFilesOf(started.url, ivy);
    const otherFiles = await uploadFilesOf(started.url, other);
    expect(ivyFiles).toHaveLength(4);
    expect(otherFiles).toHaveLength(4);
    expect((await storedNames(started)).sort()).toEqual([...ivyFiles, ...otherFiles].sort());

    const response = await fetch(`${started.url}/api/account`, {
      method: "DELETE",
      headers: { ...bearer(ivy), "content-type": "application/json" },
      body: JSON.stringify({ confirmEmail: ivy.email }),
    });
    expect(response.status).toBe(204);
    expect((await storedNames(started)).sort()).toEqual(otherFiles.sort());
    for (const name of otherFiles) expect((await fetch(`${started.url}/uploads/${name}`)).status).toBe(200);
  } finally {
    await started.close();
  }
}

describe("DELETE /api/account removes every file of every upload, whichever store holds them", () => {
  test("UPLOADS_STORE=dir: the uploads folder keeps only the other account's files", async () => {
    await deleteAccountOnStore({ UPLOADS_STORE: "dir" }, async (started) =>
      readdirSync(join(started.dataDir, "uploads")),
    );
  });

  test("UPLOADS_STORE=s3: the bucket keeps only the other account's objects", async () => {
    const s3 = startFakeS3();
    try {
      await deleteAccountOnStore(s3.env, async () => [...s3.objects.keys()]);
    } finally {
      s3.stop();
    }
  });

  test.skipIf(testEngine !== "postgres")(
    "UPLOADS_STORE=db: the uploads table keeps only the other account's rows",
    async () => {
      await deleteAccountOnStore({ UPLOADS_STORE: "db" }, async (started) =>
        (await started.sql.all<{ name: string }>("SELECT name FROM uploads")).map((row) => row.name),
      );
    },
  );
});
