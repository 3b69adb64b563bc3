// Sign-in end to end: our real routes and the real arctic client against a fake Google over HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startFakeGoogle, type FakeGoogle, type FakeGoogleProfile } from "../fakes/google.ts";
import { Browser } from "../helpers/browser.ts";
import { TestClock } from "../helpers/clock.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hashSecret } from "../../src/auth/tokens.ts";

let google: FakeGoogle;
let server: TestServer;

beforeAll(async () => {
  google = startFakeGoogle();
  server = await startTestServer({ ...google.env, AUTH_RATE_LIMIT: "10000" });
});
afterAll(async () => {
  await server.close();
  google.stop();
});

const profile = (overrides: Partial<FakeGoogleProfile> = {}): FakeGoogleProfile => ({
  sub: `sub-${crypto.randomUUID()}`,
  email: `john.doe+${crypto.randomUUID().slice(0, 4)}@example.com`,
  email_verified: true,
  given_name: "John",
  family_name: "Doe",
  picture: "https://lh3.example.com/photo.jpg",
  ...overrides,
});

/** The three hops of a Google sign-in; returns our callback's answer. */
async function signInWithGoogle(browser: Browser, who: FakeGoogleProfile): Promise<Response> {
  google.signInAs(who);
  const start = await browser.fetch("/api/auth/google");
  expect(start.status).toBe(302);
  const atGoogle = await browser.fetch(start.headers.get("location")!);
  expect(atGoogle.status).toBe(302);
  return browser.fetch(atGoogle.headers.get("location")!);
}

const countRows = async (table: string) =>
  (await server.sql.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))!.n;

describe("Google sign-in", () => {
  test("redirects to Google with state and PKCE, both kept in short-lived HttpOnly cookies", async () => {
    const browser = new Browser(server.url);
    const response = await browser.fetch("/api/auth/google");
    const location = new URL(response.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${google.url}/authorize`);
    expect(location.searchParams.get("code_challenge_method")).toBe("S256");
    expect(location.searchParams.get("redirect_uri")).toBe(`${server.ctx.config.publicUrl}/api/auth/google/callback`);
    const cookies = response.headers.getSetCookie();
    for (const name of ["lp_oauth_state", "lp_oauth_verifier"]) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Max-Age=600/i);
    }
  });

  test("a new user is created with a slug from the e-mail, and a session starts", async () => {
    const browser = new Browser(server.url);
    const who = profile({ email: "Maria.Lopez@Example.com", given_name: "Maria", family_name: "Lopez" });
    const done = await signInWithGoogle(browser, who);
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin");
    const sessionCookie = done.headers.getSetCookie().find((c) => c.startsWith("lp_session="))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).toMatch(/Path=\//);
    expect(sessionCookie).not.toMatch(/Secure/i);

    const me = await (await browser.fetch("/api/auth/user")).json();
    expect(me).toMatchObject({
      email: "maria.lopez@example.com",
      firstName: "Maria",
      lastName: "Lopez",
      userSlug: "marialopez",
      profileImageUrl: "https://lh3.example.com/photo.jpg",
    });
    // The database holds a hash of the token, never the token itself.
    const token = browser.cookies.get("lp_session")!;
    expect(await server.sql.get("SELECT 1 FROM sessions WHERE sid = ?", token)).toBeNull();
    expect(await countRows("sessions")).toBeGreaterThan(0);
  });

  test("a second user with the same e-mail local part gets a suffixed slug", async () => {
    await signInWithGoogle(new Browser(server.url), profile({ email: "sam@one.example" }));
    const second = new Browser(server.url);
    await signInWithGoogle(second, profile({ email: "sam@two.example" }));
    expect((await (await second.fetch("/api/auth/user")).json()).userSlug).toBe("sam2");
  });

  test("a returning user is updated, not duplicated, and keeps the slug", async () => {
    const who = profile({ email: "returning@example.com" });
    await signInWithGoogle(new Browser(server.url), who);
    const before = await countRows("users");
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, { ...who, given_name: "Johnny", picture: "https://lh3.example.com/new.jpg" });
    expect(await countRows("users")).toBe(before);
    expect(await (await browser.fetch("/api/auth/user")).json()).toMatchObject({
      firstName: "Johnny",
      userSlug: "returning",
      profileImageUrl: "https://lh3.example.com/new.jpg",
    });
  });

  test("a bad state is refused with a 400 and no session", async () => {
    const browser = new Browser(server.url);
    google.signInAs(profile());
    const start = await browser.fetch("/api/auth/google");
    const atGoogle = await browser.fetch(start.headers.get("location")!);
    const callback = new URL(atGoogle.headers.get("location")!);
    callback.searchParams.set("state", "forged");
    const sessionsBefore = await countRows("sessions");
    const response = await browser.fetch(callback.toString());
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Sign-in failed");
    expect(browser.cookies.has("lp_session")).toBe(false);
    expect(await countRows("sessions")).toBe(sessionsBefore);
  });

  test("a callback without the PKCE cookies (another browser) is refused", async () => {
    const browser = new Browser(server.url);
    google.signInAs(profile());
    const start = await browser.fetch("/api/auth/google");
    const atGoogle = await browser.fetch(start.headers.get("location")!);
    const stranger = new Browser(server.url);
    expect((await stranger.fetch(atGoogle.headers.get("location")!)).status).toBe(400);
  });

  test("an unverified e-mail is refused and no user is created", async () => {
    const browser = new Browser(server.url);
    const before = await countRows("users");
    const response = await signInWithGoogle(browser, profile({ email_verified: false }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("not verified");
    expect(await countRows("users")).toBe(before);
    expect(browser.cookies.has("lp_session")).toBe(false);
  });
});

describe("sessions", () => {
  test("/api/auth/user is a 401 with a JSON message when signed out", async () => {
    const response = await fetch(`${server.url}/api/auth/user`);
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBeString();
  });

  test("logout deletes the session row and clears the cookie", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    const token = browser.cookies.get("lp_session")!;
    const before = await countRows("sessions");
    const response = await browser.fetch("/api/auth/logout");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(await countRows("sessions")).toBe(before - 1);
    expect(browser.cookies.has("lp_session")).toBe(false);
    // The old token no longer works even if someone kept it.
    const replay = await fetch(`${server.url}/api/auth/user`, { headers: { cookie: `lp_session=${token}` } });
    expect(replay.status).toBe(401);
  });

  test("an expired session is signed out", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    const sid = hashSecret(browser.cookies.get("lp_session")!);
    await server.sql.run("UPDATE sessions SET expire = ? WHERE sid = ?", new Date(Date.now() - 1000), sid);
    expect((await browser.fetch("/api/auth/user")).status).toBe(401);
    expect(await server.sql.get("SELECT 1 FROM sessions WHERE sid = ?", sid)).toBeNull();
    expect(browser.cookies.has("lp_session")).toBe(false);
  });

  test("a session past half its 30 days is extended", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    const soon = Date.now() + 5 * 86_400_000;
    const sid = hashSecret(browser.cookies.get("lp_session")!);
    await server.sql.run("UPDATE sessions SET expire = ? WHERE sid = ?", new Date(soon), sid);
    const response = await browser.fetch("/api/auth/user");
    expect(response.status).toBe(200);
    const expire = (await server.sql.get<{ expire: number }>("SELECT expire FROM sessions WHERE sid = ?", sid))!.expire;
    expect(expire).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("lp_session="))).toBe(true);
  });
});

describe("consent", () => {
  test("the flags before and after consent, and a refusal that stores nothing", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    expect(await (await browser.fetch("/api/auth/user")).json()).toMatchObject({
      needsConsent: true,
      hasConsent: false,
    });

    const before = await countRows("user_consents");
    for (const bad of [{ termsAccepted: true, privacyAccepted: false }, { termsAccepted: true }, {}, "yes"]) {
      const refused = await browser.fetch("/api/auth/consent", { method: "POST", json: bad });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toContain(
        "Please accept both terms and conditions and privacy policy to continue.",
      );
    }
    expect(await countRows("user_consents")).toBe(before);

    const accepted = await browser.fetch("/api/auth/consent", {
      method: "POST",
      json: { termsAccepted: true, privacyAccepted: true },
    });
    expect(accepted.status).toBe(200);
    expect(await (await browser.fetch("/api/auth/user")).json()).toMatchObject({
      needsConsent: false,
      hasConsent: true,
    });
  });
});

describe("CSRF", () => {
  test("a cross-origin POST with a valid cookie is refused with a 403 and changes nothing", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    const before = await countRows("user_consents");
    const json = { termsAccepted: true, privacyAccepted: true };
    const crossOrigin = await browser.fetch("/api/auth/consent", {
      method: "POST",
      json,
      headers: { origin: "https://evil.example" },
    });
    expect(crossOrigin.status).toBe(403);
    const crossSite = await browser.fetch("/api/auth/consent", {
      method: "POST",
      json,
      headers: { "sec-fetch-site": "cross-site", origin: server.url },
    });
    expect(crossSite.status).toBe(403);
    const noOrigin = await fetch(`${server.url}/api/auth/consent`, {
      method: "POST",
      body: JSON.stringify(json),
      headers: { cookie: browser.cookieHeader(), "content-type": "application/json" },
    });
    expect(noOrigin.status).toBe(403);
    expect(await countRows("user_consents")).toBe(before);
  });
});

/** API writes need the terms accepted (src/auth/plugin.ts), as the consent dialog does in the browser. */
async function acceptTermsIn(browser: Browser): Promise<void> {
  expect(
    (await browser.fetch("/api/auth/consent", { method: "POST", json: { termsAccepted: true, privacyAccepted: true } }))
      .status,
  ).toBe(200);
}

describe("API tokens", () => {
  test("created once, works without cookies, listed, and stops working once revoked", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile({ email: "tokens@example.com" }));
    await acceptTermsIn(browser);
    const created = await browser.fetch("/api/tokens", { method: "POST", json: { name: "laptop" } });
    expect(created.status).toBe(201);
    const { id, token, name } = await created.json();
    expect(name).toBe("laptop");
    expect(token).toStartWith("lp_");
    expect(await server.sql.get("SELECT 1 FROM api_tokens WHERE token_hash = ?", token)).toBeNull();

    const bearer = { authorization: `Bearer ${token}` };
    const me = await fetch(`${server.url}/api/auth/user`, { headers: bearer });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe("tokens@example.com");
    // No CSRF check for bearer calls: they carry no ambient credentials.
    const consent = await fetch(`${server.url}/api/auth/consent`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: '{"termsAccepted":true,"privacyAccepted":true}',
    });
    expect(consent.status).toBe(200);

    const list = await (await browser.fetch("/api/tokens")).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id, name: "laptop" });
    expect(list[0].lastUsedAt).not.toBeNull();
    expect(list[0].token).toBeUndefined();

    expect((await browser.fetch(`/api/tokens/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${server.url}/api/auth/user`, { headers: bearer })).status).toBe(401);
    expect((await browser.fetch(`/api/tokens/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  test("a token name is required", async () => {
    const browser = new Browser(server.url);
    await signInWithGoogle(browser, profile());
    await acceptTermsIn(browser);
    const response = await browser.fetch("/api/tokens", { method: "POST", json: { name: "  " } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("name: Name is required");
  });

  test("another user's token cannot be revoked", async () => {
    const owner = new Browser(server.url);
    await signInWithGoogle(owner, profile());
    await acceptTermsIn(owner);
    const { id } = await (await owner.fetch("/api/tokens", { method: "POST", json: { name: "mine" } })).json();
    const other = new Browser(server.url);
    await signInWithGoogle(other, profile());
    await acceptTermsIn(other);
    expect((await other.fetch(`/api/tokens/${id}`, { method: "DELETE" })).status).toBe(404);
    expect(await server.sql.get("SELECT 1 AS ok FROM api_tokens WHERE id = ?", id)).toEqual({ ok: 1 });
  });
});

describe("sign-in links (self-hosting)", () => {
  const cli = join(import.meta.dir, "../../cli/linkprev.ts");

  async function adminLoginLink(email: string): Promise<string> {
    const run = Bun.spawnSync(
      [process.execPath, cli, "admin", "login-link", "--email", email, "--name", "Ana Silva", "--data", server.dataDir],
      {
        // On PostgreSQL the command finds the server's database the way an operator's shell would: DATABASE_URL.
        env: {
          ...process.env,
          PUBLIC_URL: server.ctx.config.publicUrl,
          ...(server.ctx.config.postgres ? { DATABASE_URL: server.ctx.config.postgres.url } : {}),
        },
      },
    );
    expect(run.exitCode).toBe(0);
    return run.stdout.toString().trim();
  }

  test("`linkprev admin login-link` prints a link that works once", async () => {
    const link = await adminLoginLink("ana@selfhost.example");
    expect(link).toStartWith(`${server.ctx.config.publicUrl}/login/`);
    const token = link.split("/login/")[1]!;
    const browser = new Browser(server.url);
    // Opening the link only shows a button: a chat's link previewer must not use it up.
    const page = await browser.fetch(`/login/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/api/auth/login-link"');

    const signIn = await browser.fetch("/api/auth/login-link", {
      method: "POST",
      body: new URLSearchParams({ token }),
    });
    expect(signIn.status).toBe(303);
    expect(await (await browser.fetch("/api/auth/user")).json()).toMatchObject({
      email: "ana@selfhost.example",
      firstName: "Ana",
      lastName: "Silva",
      userSlug: "ana",
    });

    const again = new Browser(server.url);
    const reuse = await again.fetch("/api/auth/login-link", { method: "POST", body: new URLSearchParams({ token }) });
    expect(reuse.status).toBe(400);
    expect(again.cookies.has("lp_session")).toBe(false);
  });

  test("a link does not work after 15 minutes", async () => {
    const token = (await adminLoginLink("late@selfhost.example")).split("/login/")[1]!;
    await server.sql.run("UPDATE login_links SET expires_at = ? WHERE used_at IS NULL", new Date(Date.now() - 1));
    const browser = new Browser(server.url);
    expect(
      (await browser.fetch("/api/auth/login-link", { method: "POST", body: new URLSearchParams({ token }) })).status,
    ).toBe(400);
    expect(browser.cookies.has("lp_session")).toBe(false);
  });
});

describe("without Google configured", () => {
  test("the sign-in route explains how to get a link, and cookies are Secure behind https", async () => {
    const selfHosted = await startTestServer({ PUBLIC_URL: "https://links.example" });
    try {
      const page = await fetch(`${selfHosted.url}/api/auth/google`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Google sign-in is not configured on this server");
      expect(html).toContain("linkprev admin login-link");
      // Without SMTP_URL nothing is e-mailed, so the page offers no form for it.
      expect(html).not.toContain("E-mail me a sign-in link");

      const { loginLinkFor } = await import("../../src/admin/access.ts");
      const token = (await loginLinkFor(selfHosted.ctx.database, "https://links.example", "secure@example.com")).split(
        "/login/",
      )[1]!;
      const signIn = await fetch(`${selfHosted.url}/api/auth/login-link`, {
        method: "POST",
        body: new URLSearchParams({ token }),
        redirect: "manual",
      });
      expect(signIn.headers.getSetCookie().find((c) => c.startsWith("lp_session="))).toMatch(/Secure/i);
    } finally {
      await selfHosted.close();
    }
  });

  test("sign-in endpoints are rate limited per IP with a clear 429", async () => {
    // The limit counts in the clock's minutes: a clock that stands still keeps the four requests in one.
    const limited = await startTestServer({ AUTH_RATE_LIMIT: "3" }, new TestClock());
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.url}/api/auth/google`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await fetch(`${limited.url}/api/auth/login-link`, {
        method: "POST",
        body: new URLSearchParams({ token: "x" }),
      });
      expect(refused.status).toBe(429);
      expect((await refused.json()).message).toContain("Too many requests");
    } finally {
      await limited.close();
    }
  });
});
