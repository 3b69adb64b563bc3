// The public pages as a browser receives them: status, the spec's words, footer, and which pages ship script.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getTableName, type Table } from "drizzle-orm";
import {
  BILLING_ON,
  GOOGLE_ON,
  seedSubscription,
  seedUser,
  startTestServer,
  type TestServer,
  seedSession,
} from "../helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    ...BILLING_ON,
    ...GOOGLE_ON,
    CONTACT_FORM_URL: "https://forms.example/contact",
    SOCIAL_URL: "https://social.example/linkprev",
  });
});
afterAll(() => server.close());

const get = async (path: string, cookie?: string) => {
  const response = await fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: response.status, html: await response.text(), response };
};

async function signedInCookie(
  plan: "basic" | "pro" | "enterprise" | null,
  names: { firstName?: string; lastName?: string } = {},
): Promise<string> {
  const user = await seedUser(server.sql);
  if (names.firstName)
    await server.sql.run(
      "UPDATE users SET first_name = ?, last_name = ? WHERE id = ?",
      names.firstName,
      names.lastName ?? null,
      user.id,
    );
  if (plan) await seedSubscription(server.sql, user.id, plan);
  return `lp_session=${(await seedSession(server.sql, user.id)).token}`;
}

const planButtons = (html: string) =>
  [...html.matchAll(/<button([^>]*)>(Start now|Subscribe|Current Plan|Upgrade|Downgrade)<\/button>/g)].map((m) =>
    m[1]!.includes('disabled=""') ? `${m[2]} (disabled)` : m[2],
  );

describe("every page", () => {
  const pages: Array<[string, string, string[]]> = [
    [
      "/",
      "Custom link previews · LinkPrev",
      [
        "Get Started with Google",
        'id="features"',
        "Custom content",
        "Analytics",
        "Short URLs",
        'id="pricing"',
        "All prices exclude VAT.",
      ],
    ],
    [
      "/pricing",
      "Pricing · LinkPrev",
      ["Subscription Plans", "Choose the plan that best fits your needs", "€5", "/month", "All prices exclude VAT."],
    ],
    ["/about", "About · LinkPrev", ["TBD"]],
    [
      "/privacy",
      "Privacy · LinkPrev",
      [
        "never written to disk",
        "replaced at midnight UTC",
        "then deleted",
        "counted as a scan",
        "These raw view records are kept for 395 days, then deleted.",
      ],
    ],
    ["/terms", "Terms · LinkPrev", ["TBD"]],
    [
      "/contact",
      "Contact · LinkPrev",
      [
        'href="https://forms.example/contact" target="_blank" rel="noopener noreferrer"',
        'href="https://social.example/linkprev" target="_blank"',
      ],
    ],
  ];
  for (const [path, title, words] of pages) {
    test(`${path}: title, words, top bar, footer and version`, async () => {
      const { status, html } = await get(path);
      expect(status).toBe(200);
      expect(html).toStartWith("<!DOCTYPE html>");
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('name="viewport"');
      expect(html).toContain(`<title>${title}</title>`);
      for (const word of words) expect(html).toContain(word);
      for (const link of ["/#features", "/#pricing", "/about", "/contact", "/privacy", "/terms"])
        expect(html).toContain(`href="${link}"`);
      expect(html).toContain(`© ${new Date().getFullYear()} LinkPrev`);
      expect(html).toContain("0.1.0-test");
      expect(html).toContain("Create custom link previews for social media sharing, no code required.");
      expect(html).toMatch(/<a href="\/api\/auth\/google"[^>]*>Access<\/a>/);
    });
  }

  test("/about, /privacy, /terms, /contact and the 404 page send no script", async () => {
    for (const path of ["/about", "/privacy", "/terms", "/contact", "/no/such/page"]) {
      const { html } = await get(path);
      expect({ path, scripts: html.includes("<script") }).toEqual({ path, scripts: false });
    }
  });

  test("unknown paths are the 404 page", async () => {
    const { status, html } = await get("/no/such/page");
    expect(status).toBe(404);
    expect(html).toContain("404 Page Not Found");
  });

  test("the stylesheet and island script are content-hashed and cached for a year", async () => {
    const { html } = await get("/");
    const css = /href="(\/assets\/styles\.[0-9a-f]{10}\.css)"/.exec(html)![1]!;
    const js = /<script type="module" src="(\/assets\/client\.[a-z0-9]+\.js)"/.exec(html)![1]!;
    for (const asset of [css, js]) {
      const response = await fetch(`${server.url}${asset}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    expect((await fetch(`${server.url}/favicon.ico`)).status).toBe(200);
  });
});

describe("plan buttons, decided on the server", () => {
  test("signed out: 'Start now'", async () => {
    expect(planButtons((await get("/pricing")).html)).toEqual(["Start now", "Start now", "Start now"]);
  });
  test("signed in without a plan: 'Subscribe'", async () => {
    expect(planButtons((await get("/pricing", await signedInCookie(null))).html)).toEqual([
      "Subscribe",
      "Subscribe",
      "Subscribe",
    ]);
  });
  test("on pro: 'Downgrade', disabled 'Current Plan', 'Upgrade'", async () => {
    expect(planButtons((await get("/pricing", await signedInCookie("pro"))).html)).toEqual([
      "Downgrade",
      "Current Plan (disabled)",
      "Upgrade",
    ]);
  });
});

describe("top bar when signed in", () => {
  test("the avatar shows initials, or '?' without a name; no Access button", async () => {
    const named = (await get("/about", await signedInCookie("basic", { firstName: "Ana", lastName: "Silva" }))).html;
    expect(named).toContain('aria-label="AS, account menu for Ana Silva"');
    expect(named).toMatch(/>AS<\/button>/);
    expect(named).not.toMatch(/>Access<\/a>/);
    // A signed-in page hydrates the avatar menu.
    expect(named).toContain('<script type="module"');
    expect((await get("/about", await signedInCookie(null))).html).toMatch(/>\?<\/button>/);
  });
});

describe("guards", () => {
  test("signed out on /payment-success: redirect to / with a one-time flash toast", async () => {
    const first = await get("/payment-success");
    expect(first.status).toBe(302);
    expect(first.response.headers.get("location")).toBe("/");
    const flash = first.response.headers.getSetCookie().find((c) => c.startsWith("lp_flash="))!;
    expect(flash).toBeDefined();
    const cookie = flash.split(";")[0]!;
    const landing = await get("/", cookie);
    expect(landing.html).toContain("Authentication required");
    expect(landing.html).toContain("Please sign in to access this page");
    // Shown once: the cookie is cleared by the page that showed it.
    expect(
      landing.response.headers
        .getSetCookie()
        .some((c) => c.startsWith("lp_flash=;") || /lp_flash=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(c)),
    ).toBe(true);
  });
});

describe("security headers", () => {
  test("pages and API answers carry CSP, framing, sniffing and referrer rules; no HSTS over http", async () => {
    for (const path of ["/", "/api/plans", "/no/such/page", "/api/auth/user"]) {
      const { response } = await get(path);
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });

  test("behind https every answer, short URLs included, carries HSTS", async () => {
    const secure = await startTestServer({ PUBLIC_URL: "https://links.example" });
    try {
      for (const path of ["/", "/api/version", "/go/nobody/nothing"]) {
        expect((await fetch(`${secure.url}${path}`)).headers.get("strict-transport-security")).toBe(
          "max-age=31536000; includeSubDomains",
        );
      }
    } finally {
      await secure.close();
    }
  });
});

describe("dashboard", () => {
  test("links come 20 to a page, newest first; usage counts them all", async () => {
    const user = await seedUser(server.sql);
    await seedSubscription(server.sql, user.id, "pro");
    for (let i = 1; i <= 25; i++) {
      await server.sql.run(
        "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description, created_at) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, 'https://example.com/', ?, 'd', ?)",
        user.id,
        user.id,
        `s${i}`,
        `Link number ${i}`,
        new Date(Date.now() - (100 - i) * 1000),
      );
    }
    const cookie = `lp_session=${(await seedSession(server.sql, user.id)).token}`;
    const first = (await get("/admin", cookie)).html;
    expect(first).toContain("25 of 150 links used");
    expect(first.match(/data-testid="link-row"/g)).toHaveLength(20);
    expect(first).toContain("Link number 25");
    expect(first).not.toContain("Link number 5<");
    expect(first).toContain("Page 1 of 2");
    const second = (await get("/admin?page=2", cookie)).html;
    expect(second.match(/data-testid="link-row"/g)).toHaveLength(5);
    expect(second).toContain("Link number 1<");
    expect((await get("/admin?page=99", cookie)).html).toContain("Page 2 of 2");
  });
});

describe("link editor", () => {
  test("offers 'Fill from page' only when the server may fetch pages (FETCH_DISABLED hides it)", async () => {
    expect((await get("/admin/link/new", await signedInCookie("pro"))).html).toContain("Fill from page");
    const off = await startTestServer({ ...BILLING_ON, FETCH_DISABLED: "true" });
    try {
      const user = await seedUser(off.sql);
      await seedSubscription(off.sql, user.id, "pro");
      const cookie = `lp_session=${(await seedSession(off.sql, user.id)).token}`;
      const editor = await fetch(`${off.url}/admin/link/new`, { headers: { cookie } });
      expect(editor.status).toBe(200);
      const html = await editor.text();
      expect(html).toContain("Target URL");
      expect(html).not.toContain("Fill from page");
    } finally {
      await off.close();
    }
  });

  test("editing shows the address to share now: the newest version's", async () => {
    const cookie = await signedInCookie("pro");
    const created = await fetch(`${server.url}/api/links`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({
        title: "Versioned",
        description: "A card",
        targetUrl: "https://example.com/",
        customLinkSlug: "versioned",
      }),
    });
    expect(created.status).toBe(201);
    const { id, shortUrl } = (await created.json()) as { id: number; shortUrl: string };
    expect(
      (
        await fetch(`${server.url}/api/links/${id}/versions`, {
          method: "POST",
          headers: { cookie, origin: server.url },
        })
      ).status,
    ).toBe(201);
    const html = (await get("/admin/link/edit/versioned", cookie)).html;
    expect(html).toContain(`>${shortUrl}/2</span>`);
    expect(html).toContain(`aria-label="Copy ${shortUrl}/2"`);
  });
});

describe("link editor failures", () => {
  test("'Link Not Found' (404) only for a missing link; a database failure is the error page (500)", async () => {
    const own = await startTestServer(BILLING_ON);
    try {
      const user = await seedUser(own.sql);
      await seedSubscription(own.sql, user.id, "pro");
      const cookie = `lp_session=${(await seedSession(own.sql, user.id)).token}`;
      const editor = (path: string) => fetch(`${own.url}${path}`, { headers: { cookie } });
      const missing = await editor("/admin/link/edit/nothing-here");
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("Link Not Found");
      // A slug no link can have (a NUL, which PostgreSQL refuses in a query) is missing too, not a failure.
      for (const impossible of ["%00", "a%00b", "x".repeat(21)]) {
        const response = await editor(`/admin/link/edit/${impossible}`);
        expect(response.status).toBe(404);
        expect(await response.text()).toContain("Link Not Found");
      }
      // The links table gone: the editor's query fails, which is no reason to say the link does not exist.
      await own.sql.run("ALTER TABLE links RENAME TO links_elsewhere");
      const failed = await editor("/admin/link/edit/nothing-here");
      const html = await failed.text();
      expect(failed.status).toBe(500);
      expect(html).toContain("Something went wrong");
      expect(html).not.toContain("Link Not Found");
      await own.sql.run("ALTER TABLE links_elsewhere RENAME TO links");
    } finally {
      await own.close();
    }
  });
});

describe("the signed-in viewer", () => {
  test("is resolved once per page: a dashboard or editor render reads the subscription once", async () => {
    // On this thread (APP_WORKERS=0), so the reads can be counted on the server's own database object.
    const own = await startTestServer({ ...BILLING_ON, APP_WORKERS: "0" });
    try {
      const user = await seedUser(own.sql);
      await seedSubscription(own.sql, user.id, "pro");
      const cookie = `lp_session=${(await seedSession(own.sql, user.id)).token}`;
      const read: string[] = [];
      const db = own.ctx.db as unknown as { select: (...args: unknown[]) => { from: (table: Table) => unknown } };
      const select = db.select.bind(db);
      db.select = (...args) => {
        const query = select(...args);
        const from = query.from.bind(query);
        query.from = (table) => (read.push(getTableName(table)), from(table));
        return query;
      };
      for (const path of ["/admin", "/admin/link/new"]) {
        read.length = 0;
        const response = await fetch(`${own.url}${path}`, { headers: { cookie } });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("Pro");
        expect(read.filter((table) => table === "subscriptions")).toHaveLength(1);
        expect(read.filter((table) => table === "user_consents")).toHaveLength(1);
      }
    } finally {
      await own.close();
    }
  });
});
