// What the dashboard draws from its cheaper reads (src/links/list-deleted.ts, src/client/format.ts): the deleted
// links' titles, first addresses (on the custom domain a link had), creation and deletion dates, the most recently deleted
// first and at most a page of them; counts with thousands separators from 1,000 on; each row's creation date.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { insertRollup } from "../helpers/account.ts";
import {
  seedLink,
  seedSession,
  seedSubscription,
  seedUser,
  startTestServer,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let cookie: string;
let userSlug: string;

const DAY = 86_400_000;
const NOV_2 = Date.UTC(2026, 10, 2, 23, 59);

beforeAll(async () => {
  server = await startTestServer();
  const user = await seedUser(server.sql, { consent: true });
  userSlug = user.userSlug;
  await seedSubscription(server.sql, user.id, "enterprise");
  cookie = `lp_session=${(await seedSession(server.sql, user.id)).token}`;
  const domain = await server.sql.get<{ id: number }>(
    "INSERT INTO domains (user_id, workspace_id, hostname, status, verification_token) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'links.example.org', 'verified', 'token') RETURNING id",
    user.id,
    user.id,
  );
  // 23 deleted links (one more than a page of 20 plus two), deleted a day apart: d0 the longest ago.
  for (let i = 0; i < 23; i++) {
    const id = await seedLink(server.sql, user.id, { linkSlug: `d${i}`, title: `Gone ${i}` });
    await server.sql.run(
      "UPDATE links SET deleted = ?, deleted_at = ?, created_at = ?, version = ? WHERE id = ?",
      true,
      new Date(NOV_2 + i * DAY),
      new Date(NOV_2 - DAY),
      i === 22 ? 3 : 1,
      id,
    );
    if (i === 21) await server.sql.run("UPDATE links SET domain_id = ? WHERE id = ?", domain!.id, id);
  }
  const live = await seedLink(server.sql, user.id, { linkSlug: "live", title: "Still here" });
  await server.sql.run("UPDATE links SET created_at = ? WHERE id = ?", new Date(NOV_2), live);
  await insertRollup(server.sql, live, "2026-11-20", "", 1234, 999);
  await insertRollup(server.sql, live, "2026-11-21", "", 5, 0);
});
afterAll(() => server.close());

const dashboard = async () => {
  const response = await fetch(`${server.url}/admin`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return response.text();
};
const text = (html: string) => html.replace(/<[^>]+>/g, "").replaceAll("&amp;", "&");

test("deleted links: newest deletion first, a page of them, each with its first address, creation and deletion date", async () => {
  const html = await dashboard();
  const section = /data-testid="deleted-links">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
  const items = [...section.matchAll(/<li[^>]*>(.*?)<\/li>/gs)].map((m) => text(m[1]!));
  expect(items).toHaveLength(20);
  expect(items[0]).toBe(
    `Gone 22 · ${server.ctx.config.publicUrl}/go/${userSlug}/d22 · created Nov 1, 2026 · deleted Nov 24, 2026`,
  );
  expect(items[1]).toBe("Gone 21 · http://links.example.org/d21 · created Nov 1, 2026 · deleted Nov 23, 2026");
  expect(items[19]).toBe(
    `Gone 3 · ${server.ctx.config.publicUrl}/go/${userSlug}/d3 · created Nov 1, 2026 · deleted Nov 5, 2026`,
  );
});

test("counts read with thousands separators from 1,000 on, digits alone below", async () => {
  const html = text(await dashboard());
  expect(html).toContain("1,239 people visited (0 daily unique) · 999 crawler fetches · created Nov 2, 2026");
  expect(html).toMatch(/Total Views\s*2,238/);
  expect(html).toMatch(/Bot Views\s*999/);
  expect(html).toContain("1 of unlimited links used");
});

test("a search with control characters (a NUL too) parts its words there, on every engine, rather than failing", async () => {
  for (const q of ["still%00here", "here%0A%01still", "%00"]) {
    const response = await fetch(`${server.url}/admin?q=${q}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    // Both words found in any order, and a search of nothing but a NUL is no search: the live link is listed.
    expect(text(await response.text())).toContain("Still here");
  }
});
