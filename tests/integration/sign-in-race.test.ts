// First sign-ins that race: on PostgreSQL transactions run side by side, so two first sign-ins of one person, or
// of two people whose e-mails share a local part, both find no user and both insert. Each must still succeed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { upsertUser } from "../../src/auth/users.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("five concurrent first sign-ins of one person: one user, and every sign-in gets it", async () => {
  const profile = {
    email: "Rita@Example.com",
    firstName: "Rita",
    lastName: null,
    profileImageUrl: null,
    googleSub: "google-rita",
  };
  const users = await Promise.all(
    Array.from({ length: 5 }, () => upsertUser(server.ctx.database, profile, Date.now())),
  );
  expect(new Set(users.map((u) => u.id)).size).toBe(1);
  expect(users.every((u) => u.email === "rita@example.com" && u.userSlug === "rita")).toBe(true);
  expect(
    await server.sql.get("SELECT CAST(count(*) AS INTEGER) AS n FROM users WHERE email = ?", "rita@example.com"),
  ).toEqual({ n: 1 });
});

test("three people with one e-mail local part signing in at once get three slugs", async () => {
  const emails = ["tiago@a.example", "tiago@b.example", "tiago@c.example"];
  const users = await Promise.all(
    emails.map((email) =>
      upsertUser(server.ctx.database, { email, firstName: null, lastName: null, profileImageUrl: null }, Date.now()),
    ),
  );
  expect(users.map((u) => u.email)).toEqual(emails);
  expect(users.map((u) => u.userSlug).sort()).toEqual(["tiago", "tiago2", "tiago3"]);
});
