// Smaller security points: API writes need the terms accepted, the server's files are private whatever the umask,
// and an account deletion takes the day's visitor hashes of its links with it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Browser } from "../helpers/browser.ts";
import { makePng } from "../helpers/images.ts";
import {
  seedApiToken,
  seedLink,
  seedSession,
  seedUser,
  startTestServer,
  testEngine,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let parent: string;
let dataDir: string;
let umaskBefore: number;

beforeAll(async () => {
  // The loosest umask there is: whatever the server creates must still be private.
  umaskBefore = process.umask(0);
  parent = mkdtempSync(join(tmpdir(), "linkprev-modes-"));
  dataDir = join(parent, "data");
  server = await startTestServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server.close();
  process.umask(umaskBefore);
  rmSync(parent, { recursive: true, force: true });
});

const PERSON = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const api = (token: string, path: string, init: { method?: string; json?: unknown; body?: BodyInit } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
const linkCount = async (userId: number) =>
  Number((await server.sql.get<{ n: number }>("SELECT count(*) AS n FROM links WHERE user_id = ?", userId))!.n);

describe("terms not yet accepted", () => {
  test("an API write with a token or a session is refused with a 403 that says how to accept the terms; reads work; after accepting, the write goes through", async () => {
    const user = await seedUser(server.sql, { consent: false });
    const { token } = await seedApiToken(server.sql, user.id);
    const link = {
      targetUrl: "https://example.com/early",
      title: "Early",
      description: "Before the terms",
      customLinkSlug: "early",
    };

    const refused = await api(token, "/api/links", { method: "POST", json: link });
    expect(refused.status).toBe(403);
    const publicUrl = server.ctx.config.publicUrl;
    expect((await refused.json()).message).toBe(
      `Accept the terms first: open ${publicUrl}/admin in a browser, or POST ${publicUrl}/api/auth/consent with {"termsAccepted": true, "privacyAccepted": true}`,
    );
    expect(await linkCount(user.id)).toBe(0);
    // The same for a browser session (the page shows the consent dialog; a script calling the API gets this).
    const browser = new Browser(server.url);
    browser.cookies.set("lp_session", (await seedSession(server.sql, user.id)).token);
    const viaSession = await browser.fetch("/api/tokens", { method: "POST", json: { name: "laptop" } });
    expect(viaSession.status).toBe(403);
    expect((await viaSession.json()).message).toStartWith("Accept the terms first");
    // Reading is not refused.
    expect((await api(token, "/api/links")).status).toBe(200);

    const consent = await api(token, "/api/auth/consent", {
      method: "POST",
      json: { termsAccepted: true, privacyAccepted: true },
    });
    expect(consent.status).toBe(200);
    expect((await api(token, "/api/links", { method: "POST", json: link })).status).toBe(201);
    expect(await linkCount(user.id)).toBe(1);
  });

  test("deleting the account needs no consent", async () => {
    const user = await seedUser(server.sql, { consent: false });
    const { token } = await seedApiToken(server.sql, user.id);
    const deletion = await api(token, "/api/account", { method: "DELETE", json: { confirmEmail: user.email } });
    expect(deletion.status).toBe(204);
    expect(await server.sql.get("SELECT id FROM users WHERE id = ?", user.id)).toBeNull();
  });
});

describe("files on disk, under umask 000", () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  test("the data directory, the database files and uploads are private to the server's user (0700 / 0600)", async () => {
    const user = await seedUser(server.sql);
    const { token } = await seedApiToken(server.sql, user.id);
    const form = new FormData();
    for (const [key, value] of Object.entries({
      targetUrl: "https://example.com/pic",
      title: "Pic",
      description: "With an image",
      customLinkSlug: "pic",
    }))
      form.append(key, value);
    form.append("image", new File([makePng(1200, 630)], "card.png", { type: "image/png" }));
    expect((await api(token, "/api/links", { method: "POST", body: form })).status).toBe(201);

    expect(modeOf(dataDir).toString(8)).toBe("700");
    const uploads = join(dataDir, "uploads");
    expect(modeOf(uploads).toString(8)).toBe("700");
    const uploaded = readdirSync(uploads);
    expect(uploaded.length).toBeGreaterThan(0);
    for (const name of uploaded) expect(`${name} ${modeOf(join(uploads, name)).toString(8)}`).toBe(`${name} 600`);
    if (testEngine === "sqlite") {
      const files = readdirSync(dataDir).filter((name) => name.startsWith("linkprev.db"));
      expect(files).toEqual(expect.arrayContaining(["linkprev.db", "linkprev.db-wal", "linkprev.db-shm"]));
      for (const name of files) expect(`${name} ${modeOf(join(dataDir, name)).toString(8)}`).toBe(`${name} 600`);
    }
  });
});

test("an account deletion removes the day's visitor hashes of its links, and no one else's", async () => {
  const visitorsOf = async (linkId: number) =>
    Number(
      (await server.sql.get<{ n: number }>("SELECT count(*) AS n FROM view_visitors WHERE link_id = ?", linkId))!.n,
    );
  const owner = await seedUser(server.sql);
  const other = await seedUser(server.sql);
  const ownLink = await seedLink(server.sql, owner.id, { linkSlug: "visited" });
  const otherLink = await seedLink(server.sql, other.id, { linkSlug: "visited" });
  for (const [user, agent] of [
    [owner, "A"],
    [owner, "B"],
    [other, "A"],
  ] as const) {
    const response = await fetch(`${server.url}/go/${user.userSlug}/visited`, {
      redirect: "manual",
      headers: { "user-agent": `${PERSON} ${agent}` },
    });
    expect(response.status).toBe(302);
  }
  await server.flushViews();
  expect(await visitorsOf(ownLink)).toBe(2);
  expect(await visitorsOf(otherLink)).toBe(1);

  const { token } = await seedApiToken(server.sql, owner.id);
  expect((await api(token, "/api/account", { method: "DELETE", json: { confirmEmail: owner.email } })).status).toBe(
    204,
  );
  expect(await visitorsOf(ownLink)).toBe(0);
  expect(await visitorsOf(otherLink)).toBe(1);
});
