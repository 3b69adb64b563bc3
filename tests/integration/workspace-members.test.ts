// Invites and members (issue 50 item 3, docs/decisions/0065), on the engine the run chose: invites e-mailed to a real
// SMTP server process (tests/helpers/smtp-receiver.ts) and accepted by the invited account, roles handled from
// above, the last owner kept, removal cutting access and tokens at once, and seats per plan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateSecret, hashSecret } from "../../src/auth/tokens.ts";
import { Browser } from "../helpers/browser.ts";
import {
  BILLING_ON,
  seedApiToken,
  seedSession,
  seedUser,
  startTestServer,
  type TestServer,
} from "../helpers/server.ts";
import { startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver.ts";

let smtp: SmtpReceiver;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({ ...BILLING_ON, SMTP_URL: smtp.url, AUTH_RATE_LIMIT: "10000" });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

type Person = { id: number; email: string; browser: Browser };

let people = 0;
/** An account signed in in its own browser. */
async function person(label: string): Promise<Person> {
  const user = await seedUser(server.sql, {
    email: `${label}-${++people}-${crypto.randomUUID().slice(0, 6)}@example.com`,
  });
  const browser = new Browser(server.url);
  browser.cookies.set("lp_session", (await seedSession(server.sql, user.id)).token);
  return { id: user.id, email: user.email, browser };
}

/** A team workspace owned by `owner`, on `plan` (its own subscription). */
async function team(owner: Person, plan: "basic" | "pro" | "enterprise" = "enterprise") {
  const slug = `team${crypto.randomUUID().slice(0, 8)}`;
  const row = (await server.sql.get<{ id: number }>(
    "INSERT INTO workspaces (slug, name) VALUES (?, ?) RETURNING id",
    slug,
    `Team ${slug}`,
  ))!;
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'owner')",
    row.id,
    owner.id,
  );
  await subscribe(row.id, owner.id, plan);
  return { id: row.id, slug };
}

let subscriptions = 0;
/** A newer subscription of the workspace (its newest is the one that counts). */
async function subscribe(workspaceId: number, userId: number, plan: "basic" | "pro" | "enterprise") {
  await server.sql.run(
    `INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, stripe_price_id, status, plan_id, current_period_start, current_period_end, updated_at)
     VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    userId,
    workspaceId,
    `sub_${crypto.randomUUID()}`,
    `price_${plan}`,
    plan,
    new Date(Date.now() - 86_400_000),
    new Date(Date.now() + 29 * 86_400_000),
    new Date(Date.now() + ++subscriptions * 1000),
  );
}

const invite = (who: Person, workspaceId: number, email: string, role: string) =>
  who.browser.fetch(`/api/workspaces/${workspaceId}/invites`, { method: "POST", json: { email, role } });
const tokenOf = (url: string) => url.split("/invites/")[1]!;
const accept = (who: Person, token: string) => who.browser.fetch(`/api/invites/${token}/accept`, { method: "POST" });
/** The accept page's form, as the browser posts it. */
const acceptOnPage = (browser: Browser, token: string) =>
  browser.fetch(`/invites/${token}`, { method: "POST", body: new URLSearchParams({}) });
const members = async (who: Person, workspaceId: number) =>
  (await (await who.browser.fetch(`/api/workspaces/${workspaceId}/members`)).json()) as Array<{
    userId: number;
    email: string;
    role: string;
  }>;
const setRole = (who: Person, workspaceId: number, userId: number, role: string) =>
  who.browser.fetch(`/api/workspaces/${workspaceId}/members/${userId}`, { method: "PATCH", json: { role } });
const remove = (who: Person, workspaceId: number, userId: number) =>
  who.browser.fetch(`/api/workspaces/${workspaceId}/members/${userId}`, { method: "DELETE" });

describe("invites", () => {
  test("an owner invites by e-mail; the mailed link, opened by the invited account, joins once with the role", async () => {
    const ana = await person("ana");
    const bob = await person("bob");
    const workspace = await team(ana);
    const made = await invite(ana, workspace.id, bob.email.toUpperCase(), "member");
    expect(made.status).toBe(201);
    const created = await made.json();
    expect(created).toEqual({
      id: expect.any(Number),
      email: bob.email,
      role: "member",
      url: expect.stringContaining(`${server.url}/invites/`),
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(created.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);

    const mail = await smtp.mailTo(bob.email);
    expect(mail.subject).toBe(`${ana.email} invited you to "Team ${workspace.slug}" on LinkPrev`);
    expect(mail.text).toContain(created.url);
    expect(mail.html).toContain(`<a href="${created.url}">Accept the invite</a>`);
    // Only the token's hash is stored.
    const stored = await server.sql.all<Record<string, unknown>>(
      "SELECT * FROM workspace_invites WHERE id = ?",
      created.id,
    );
    expect(JSON.stringify(stored)).not.toContain(tokenOf(created.url));

    const listed = await (await ana.browser.fetch(`/api/workspaces/${workspace.id}/invites`)).json();
    expect(listed).toEqual([{ ...created, url: null }]);

    const page = await bob.browser.fetch(`/invites/${tokenOf(created.url)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Join Team ${workspace.slug}`);
    expect(html).toContain("Accept and join");

    const accepted = await accept(bob, tokenOf(created.url));
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({
      workspace: { id: workspace.id, slug: workspace.slug, name: `Team ${workspace.slug}`, role: "member" },
    });
    expect((await members(ana, workspace.id)).map((m) => [m.email, m.role])).toEqual([
      [ana.email, "owner"],
      [bob.email, "member"],
    ]);
    expect((await accept(bob, tokenOf(created.url))).status).toBe(404);
    expect(await (await ana.browser.fetch(`/api/workspaces/${workspace.id}/invites`)).json()).toEqual([]);
    expect((await bob.browser.fetch(`/invites/${tokenOf(created.url)}`)).status).toBe(404);
  });

  test("accepting needs the invited address: another account hears which one; signed out, the page offers a sign-in link for it", async () => {
    const ana = await person("ana");
    const carol = await person("carol");
    const workspace = await team(ana);
    const newcomer = `dora-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const { url } = await (await invite(ana, workspace.id, newcomer, "viewer")).json();
    const refused = await accept(carol, tokenOf(url));
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(
      `This invite is for ${newcomer}, and you are signed in as ${carol.email}. Sign out, then sign in with ${newcomer} to accept it.`,
    );
    expect((await fetch(`${server.url}/api/invites/${tokenOf(url)}/accept`, { method: "POST" })).status).toBe(401);

    // Dora has no account yet: the page's button asks for a sign-in link, which makes it, and the link signs her in.
    const dora = new Browser(server.url);
    const page = await (await dora.fetch(`/invites/${tokenOf(url)}`)).text();
    expect(page).toContain(`Sign in with ${newcomer} to accept`);
    expect(page).toContain('action="/api/auth/login-link/email"');
    await smtp.mailTo(newcomer); // the invite itself
    await dora.fetch("/api/auth/login-link/email", { method: "POST", body: new URLSearchParams({ email: newcomer }) });
    const signInMail = await smtp.mailTo(newcomer);
    const loginToken = signInMail.text.match(/\/login\/(\S+)/)![1]!;
    expect(
      (await dora.fetch("/api/auth/login-link", { method: "POST", body: new URLSearchParams({ token: loginToken }) }))
        .status,
    ).toBe(303);
    await dora.fetch("/api/auth/consent", { method: "POST", json: { termsAccepted: true, privacyAccepted: true } });
    // The accept page's form: on to the workspace's dashboard.
    const joined = await acceptOnPage(dora, tokenOf(url));
    expect(joined.status).toBe(303);
    expect(joined.headers.get("location")).toBe(`/admin?workspace=${workspace.slug}`);
    expect((await members(ana, workspace.id)).find((m) => m.email === newcomer)?.role).toBe("viewer");
  });

  test("an expired or revoked invite is refused; re-inviting replaces the pending one", async () => {
    const ana = await person("ana");
    const eve = await person("eve");
    const workspace = await team(ana);
    const first = await (await invite(ana, workspace.id, eve.email, "member")).json();
    const second = await (await invite(ana, workspace.id, eve.email, "viewer")).json();
    expect((await accept(eve, tokenOf(first.url))).status).toBe(404);
    expect(
      (await ana.browser.fetch(`/api/workspaces/${workspace.id}/invites/${second.id}`, { method: "DELETE" })).status,
    ).toBe(204);
    const revoked = await accept(eve, tokenOf(second.url));
    expect(revoked.status).toBe(404);
    expect((await revoked.json()).message).toContain("used, revoked or has expired");
    const third = await (await invite(ana, workspace.id, eve.email, "member")).json();
    await server.sql.run(
      "UPDATE workspace_invites SET expires_at = ? WHERE id = ?",
      new Date(Date.now() - 1),
      third.id,
    );
    expect((await accept(eve, tokenOf(third.url))).status).toBe(404);
    expect((await invite(ana, workspace.id, ana.email, "member")).status).toBe(409);
  });
});

describe("roles", () => {
  test("admins handle roles below admin; only owners touch admins and owners; members cannot invite", async () => {
    const [owner, admin, member] = [await person("own"), await person("adm"), await person("mem")];
    const workspace = await team(owner);
    for (const [who, role] of [
      [admin, "admin"],
      [member, "member"],
    ] as const) {
      const { url } = await (await invite(owner, workspace.id, who.email, role)).json();
      expect((await accept(who, tokenOf(url))).status).toBe(200);
    }
    expect((await invite(admin, workspace.id, "x1@example.com", "viewer")).status).toBe(201);
    const adminForAdmin = await invite(admin, workspace.id, "x2@example.com", "admin");
    expect(adminForAdmin.status).toBe(403);
    expect((await adminForAdmin.json()).message).toContain("Only an owner can");
    expect((await invite(member, workspace.id, "x3@example.com", "viewer")).status).toBe(403);
    expect((await setRole(admin, workspace.id, member.id, "viewer")).status).toBe(200);
    expect((await setRole(admin, workspace.id, member.id, "admin")).status).toBe(403);
    expect((await setRole(admin, workspace.id, owner.id, "member")).status).toBe(403);
    expect((await remove(admin, workspace.id, owner.id)).status).toBe(403);
    expect((await setRole(owner, workspace.id, admin.id, "member")).status).toBe(200);
  });

  test("ownership is transferred by making another member owner; the last owner can neither step down nor leave", async () => {
    const [ana, bob] = [await person("ana"), await person("bob")];
    const workspace = await team(ana);
    const { url } = await (await invite(ana, workspace.id, bob.email, "admin")).json();
    await accept(bob, tokenOf(url));
    const stepDown = await setRole(ana, workspace.id, ana.id, "admin");
    expect(stepDown.status).toBe(409);
    expect((await stepDown.json()).message).toContain("make another member owner first");
    expect((await remove(ana, workspace.id, ana.id)).status).toBe(409);
    expect((await setRole(ana, workspace.id, bob.id, "owner")).status).toBe(200);
    expect((await setRole(ana, workspace.id, ana.id, "admin")).status).toBe(200);
    expect((await members(bob, workspace.id)).map((m) => [m.email, m.role])).toEqual([
      [ana.email, "admin"],
      [bob.email, "owner"],
    ]);
    expect((await remove(bob, workspace.id, bob.id)).status).toBe(409);
    expect((await remove(ana, workspace.id, ana.id)).status).toBe(204);
    expect((await ana.browser.fetch(`/api/workspaces/${workspace.id}/members`)).status).toBe(404);
  });

  test("a removed member loses access on their next request, and the tokens they made there are revoked", async () => {
    const [ana, bob] = [await person("ana"), await person("bob")];
    const workspace = await team(ana);
    const { url } = await (await invite(ana, workspace.id, bob.email, "member")).json();
    await accept(bob, tokenOf(url));
    const teamToken = `lp_${generateSecret()}`;
    await server.sql.run(
      "INSERT INTO api_tokens (user_id, workspace_id, name, token_hash) VALUES (?, ?, 'team', ?)",
      bob.id,
      workspace.id,
      hashSecret(teamToken),
    );
    const { token: ownToken } = await seedApiToken(server.sql, bob.id, "own");
    const withToken = (token: string, path: string) =>
      fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await withToken(teamToken, "/api/links")).status).toBe(200);
    const seenBySession = await (await bob.browser.fetch("/api/workspaces")).json();
    expect(seenBySession.map((w: { role: string }) => w.role)).toEqual(["owner", "member"]);
    expect((await bob.browser.fetch(`/api/links?workspace=${workspace.slug}`)).status).toBe(200);

    expect((await remove(ana, workspace.id, bob.id)).status).toBe(204);
    expect((await bob.browser.fetch(`/api/links?workspace=${workspace.slug}`)).status).toBe(404);
    expect((await bob.browser.fetch(`/api/workspaces/${workspace.id}/members`)).status).toBe(404);
    const stillIn = (await (await bob.browser.fetch("/api/workspaces")).json()) as Array<{ role: string }>;
    expect(stillIn.map((w) => w.role)).toEqual(["owner"]);
    expect((await withToken(teamToken, "/api/links")).status).toBe(401);
    expect((await withToken(ownToken, "/api/links")).status).toBe(200);
    const left = await server.sql.get<{ n: number }>(
      "SELECT count(*) AS n FROM api_tokens WHERE user_id = ? AND workspace_id = ?",
      bob.id,
      workspace.id,
    );
    expect(Number(left!.n)).toBe(0);
  });
});

describe("seats", () => {
  test("basic has 1 seat, pro 5 (members and pending invites), checked again at accept", async () => {
    const ana = await person("ana");
    const basic = await team(ana, "basic");
    const full = await invite(ana, basic.id, "one@example.com", "member");
    expect(full.status).toBe(403);
    expect((await full.json()).message).toBe(
      "The Basic plan has 1 seat, and members and pending invites fill them. Upgrade at /pricing, or revoke an invite or remove a member first.",
    );

    const pro = await team(ana, "pro");
    const invites = [];
    for (let i = 0; i < 4; i++)
      invites.push(await invite(ana, pro.id, `seat${i}-${crypto.randomUUID().slice(0, 4)}@example.com`, "member"));
    expect(invites.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const fifth = await invite(ana, pro.id, "fifth@example.com", "member");
    expect(fifth.status).toBe(403);
    expect((await fifth.json()).message).toContain("The Pro plan has 5 seats");

    // The plan shrinks to basic while an invite waits: accepting it is refused, the invite kept.
    const gus = await person("gus");
    const downgraded = await team(ana, "pro");
    const { url } = await (await invite(ana, downgraded.id, gus.email, "member")).json();
    await subscribe(downgraded.id, ana.id, "basic");
    const refused = await accept(gus, tokenOf(url));
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain("The Basic plan has 1 seat");
    await subscribe(downgraded.id, ana.id, "pro");
    expect((await accept(gus, tokenOf(url))).status).toBe(200);
  });
});
