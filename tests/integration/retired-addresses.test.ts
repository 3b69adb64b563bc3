// A deleted account's user slug is retired for good: no later account gets it (its old short URLs and printed QR
// codes would lead to someone else's links), and every address under it answers 410 Gone, to people and crawlers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeGoogle, type FakeGoogle } from "../fakes/google.ts";
import { Browser } from "../helpers/browser.ts";
import { seedApiToken, seedLink, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

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

const PERSON = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
const visit = (url: string, userAgent = PERSON, method = "GET") =>
  fetch(url, { method, redirect: "manual", headers: { "user-agent": userAgent } });

async function signUpWithGoogle(email: string): Promise<{ userSlug: string; id: number }> {
  const browser = new Browser(server.url);
  google.signInAs({ sub: `sub-${crypto.randomUUID()}`, email, email_verified: true, given_name: "Next" });
  await browser.navigate("/api/auth/google");
  return (await browser.fetch("/api/auth/user")).json() as Promise<{ userSlug: string; id: number }>;
}

test("a deleted account's user slug goes to no later sign-up, and its short URLs answer 410 Gone to people and crawlers", async () => {
  // The slug a sign-up with this e-mail's local part would get first.
  const local = `ret${crypto.randomUUID().slice(0, 8)}`;
  const owner = await seedUser(server.sql, { email: `${local}@old.example`, userSlug: local });
  await seedLink(server.sql, owner.id, { linkSlug: "menu", targetUrl: "https://old.example/menu" });
  const { token } = await seedApiToken(server.sql, owner.id);
  const shortUrl = `${server.url}/go/${local}/menu`;
  // Cached by /go first (live) and as unknown: the deletion must reach both entries.
  expect((await visit(shortUrl)).status).toBe(302);
  expect((await visit(`${server.url}/go/${local}/never-made`)).status).toBe(404);

  const deletion = await fetch(`${server.url}/api/account`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ confirmEmail: owner.email }),
  });
  expect(deletion.status).toBe(204);

  for (const url of [shortUrl, `${shortUrl}/2`, `${server.url}/go/${local}/never-made`]) {
    const person = await visit(url);
    expect(person.status).toBe(410);
    expect(person.headers.get("location")).toBeNull();
    expect(await person.text()).toContain("belonged to an account that has been deleted");
    expect((await visit(url, CRAWLER)).status).toBe(410);
    expect((await visit(url, CRAWLER, "HEAD")).status).toBe(410);
  }
  // Nothing under the retired slug is counted as a view.
  expect(
    Number((await server.sql.get<{ n: number }>("SELECT count(*) AS n FROM views WHERE user_id = ?", owner.id))!.n),
  ).toBe(0);

  // The next sign-up with the same local part, even the same e-mail, gets another slug; the old one stays gone.
  for (const email of [`${local}@new.example`, owner.email]) {
    const next = await signUpWithGoogle(email);
    expect(next.id).not.toBe(owner.id);
    expect(next.userSlug).not.toBe(local);
    expect(next.userSlug.startsWith(local)).toBe(true);
  }
  expect((await visit(shortUrl)).status).toBe(410);
  // Only the slug is kept.
  expect(await server.sql.all("SELECT * FROM retired_user_slugs WHERE user_slug = ?", local)).toMatchObject([
    { user_slug: local },
  ]);
});

test("an unknown user slug still answers 404", async () => {
  expect((await visit(`${server.url}/go/nobody${crypto.randomUUID().slice(0, 8)}/menu`)).status).toBe(404);
});

test("the privacy page says that a deleted account's address is retired for good", async () => {
  const page = await (await fetch(`${server.url}/privacy`)).text();
  expect(page).toContain("never given to anyone else");
  expect(page).toContain("retired for good");
});
