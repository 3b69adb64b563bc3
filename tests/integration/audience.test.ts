// Daily unique visitors and QR code scans, over real HTTP against a real database (SQLite or PostgreSQL): what an
// owner reads back from the API, what the database holds (never a full address), and QR codes a real decoder
// reads back to the short URL with its scan marker.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import jsQR from "jsqr";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { postgresOptions } from "../../src/db/postgres/options.ts";
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { ViewBatchBuilder, type ViewBatch } from "../../src/views/view-batch.ts";
import { PgViewStore } from "../../src/views/view-store.pg.ts";
import { ViewStore } from "../../src/views/view-store.ts";
import { cliAtHome, runCliForBytes, type CliOptions } from "../helpers/cli.ts";
import {
  apiClient,
  crawlerAgents,
  seedApiToken,
  seedLink,
  startTestServer,
  testEngine,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;

const PERSON = crawlerAgents.people["chrome-windows"]!;
const OTHER_PERSON = crawlerAgents.people["firefox-linux"]!;
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
const TARGET = "https://example.com/landing?utm_source=print";

beforeAll(async () => {
  // Behind a proxy: the client address is the first X-Forwarded-For hop, so each test picks its visitors' addresses.
  server = await startTestServer({ TRUST_PROXY: "1", PUBLIC_URL: "https://lp.example" });
  owner = await apiClient(server, "pro", "owner");
});
afterAll(() => server.close());

const go = (path: string, agent: string, address: string) =>
  fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: { "user-agent": agent, "x-forwarded-for": address },
  }).then(async (response) => {
    await response.arrayBuffer();
    return response;
  });

type DayJson = { date: string; human: number; bot: number; uniqueHumans: number; scans: number };
const today = () => new Date().toISOString().slice(0, 10);

async function counts(linkId: number, slug: string) {
  await server.flushViews();
  const views = (await (await owner.call(`/api/links/${linkId}/views?days=2`)).json()) as { days: DayJson[] };
  const link = (await (await owner.call(`/api/links/by-slug/${slug}`)).json()) as {
    viewsHuman: number;
    viewsBot: number;
    uniqueHumans: number;
    scans: number;
  };
  const day = views.days.at(-1)!;
  expect(day.date).toBe(today());
  return { day, link };
}

describe("daily unique visitors", () => {
  test("the same address and agent five times is one visitor; five addresses are five; crawlers are none", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "uniq", targetUrl: TARGET });
    for (let i = 0; i < 5; i++) expect((await go("/go/owner/uniq", PERSON, "198.51.100.7")).status).toBe(302);
    let { day, link } = await counts(linkId, "uniq");
    expect(day).toMatchObject({ human: 5, uniqueHumans: 1 });
    expect(link).toMatchObject({ viewsHuman: 5, uniqueHumans: 1 });

    // Same /24, different hosts: the full address tells them apart (the stored, truncated one would not).
    for (let i = 1; i <= 5; i++) await go("/go/owner/uniq", PERSON, `198.51.100.${100 + i}`);
    // Another browser on the first address is another visitor too.
    await go("/go/owner/uniq", OTHER_PERSON, "198.51.100.7");
    for (let i = 0; i < 4; i++) expect((await go("/go/owner/uniq", CRAWLER, `192.0.2.${i}`)).status).toBe(200);
    ({ day, link } = await counts(linkId, "uniq"));
    expect(day).toMatchObject({ human: 11, bot: 4, uniqueHumans: 7, scans: 0 });
    expect(link).toMatchObject({ viewsHuman: 11, viewsBot: 4, uniqueHumans: 7 });

    // The same visitor on another link is a visitor of that link.
    const otherId = await seedLink(server.sql, owner.userId, { linkSlug: "uniq-two" });
    await go("/go/owner/uniq-two", PERSON, "198.51.100.7");
    expect((await counts(otherId, "uniq-two")).day).toMatchObject({ human: 1, uniqueHumans: 1 });
  });

  test("stats sum the daily unique visitors and the scans of the owner's live links", async () => {
    const client = await apiClient(server, "pro", "stats-owner");
    const a = await seedLink(server.sql, client.userId, { linkSlug: "a" });
    await seedLink(server.sql, client.userId, { linkSlug: "b" });
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.1"]) await go("/go/stats-owner/a", PERSON, address);
    await go("/go/stats-owner/b?qr=1", PERSON, "203.0.113.1");
    await go("/go/stats-owner/b?qr=1", CRAWLER, "203.0.113.1");
    await server.flushViews();
    const stats = await (await client.call("/api/links/stats")).json();
    expect(stats).toMatchObject({ totalLinks: 2, humanViews: 4, botViews: 1, uniqueHumans: 3, scans: 1 });
    expect(a).toBeGreaterThan(0);
  });

  test("the full client address is never written: only its /24 is", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "private" });
    for (let i = 0; i < 3; i++) await go("/go/owner/private", PERSON, "203.0.113.77");
    await go("/go/owner/private?qr=1", PERSON, "203.0.113.77");
    await go("/go/owner/private", CRAWLER, "203.0.113.77");
    await server.flushViews();
    const stored = await server.sql.all<{ ip: string | null }>("SELECT ip FROM views WHERE link_id = ?", linkId);
    expect(stored.map((row) => row.ip)).toEqual(Array(5).fill("203.0.113.0"));
    if (testEngine === "sqlite") {
      const dbPath = `${server.dataDir}/linkprev.db`;
      const files = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].filter((path) => existsSync(path));
      expect(files.length).toBeGreaterThan(1);
      for (const path of files) {
        const bytes = readFileSync(path);
        expect({ path, found: bytes.includes("203.0.113.77") }).toEqual({ path, found: false });
      }
      // The control: the truncated address is in those bytes, so the search would find a full one.
      expect(files.some((path) => readFileSync(path).includes("203.0.113.0"))).toBe(true);
    } else {
      const found = await server.sql.get<{ n: number }>(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM views WHERE ip LIKE '%203.0.113.77%' OR attribution LIKE '%203.0.113.77%'",
      );
      expect(found!.n).toBe(0);
    }
  });
});

/**
 * A second view writer on the server's database (as a second server on the same data would have), with the
 * clock the test sets: the engine's own store, folding every batch on SQLite.
 */
function writerWithClock(now: () => number): {
  write: (batch: ViewBatch) => Promise<void>;
  seal: (batch: ViewBatch) => ViewBatch;
  close: () => Promise<void>;
} {
  const { dbPath, postgres } = server.ctx.config;
  if (!postgres) {
    const sqlite = openSqlite(dbPath);
    sqlite.run("PRAGMA foreign_keys = OFF");
    const store = new ViewStore(sqlite, now);
    return {
      write: async (batch) => store.write(batch, true),
      seal: (batch) => store.seal(batch),
      close: async () => sqlite.close(),
    };
  }
  const sql = new SQL(postgresOptions(postgres.url, 1));
  const store = new PgViewStore(sql, 7, now);
  // Batch ids as the writer Worker gives them (its start in µs, then one more each): unique to this writer.
  let seq = Date.now() * 1000;
  return { write: (batch) => store.write(batch, ++seq), seal: (batch) => store.seal(batch), close: () => sql.close() };
}

describe("the UTC day change, on the writer's clock", () => {
  test("a visitor counts again on the new day; the earlier day's hashes are deleted and its count stays", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "days" });
    const DAY = 86_400_000;
    const todayNoon = Math.floor(Date.now() / DAY) * DAY + DAY / 2;
    const yesterdayNoon = todayNoon - DAY;
    let clock = yesterdayNoon;
    const writer = writerWithClock(() => clock);
    const batch = (views: Array<[address: string, agent: string, at: number]>) => {
      const builder = new ViewBatchBuilder();
      for (const [address, agent, at] of views) {
        const isBot = agent === CRAWLER;
        builder.add({
          linkId,
          userId: owner.userId,
          isBot,
          platform: isBot ? "facebook" : null,
          address,
          userAgent: agent,
          attribution: null,
          scan: false,
          at,
        });
      }
      return builder.take().batch;
    };
    const hashesOf = async (date: number) =>
      (await server.sql.get<{ n: number }>(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM view_visitors WHERE link_id = ? AND day = ?",
        linkId,
        new Date(date).toISOString().slice(0, 10),
      ))!.n;
    const days = async () =>
      ((await (await owner.call(`/api/links/${linkId}/views?days=2`)).json()) as { days: DayJson[] }).days;

    try {
      const sameVisitor: Array<[string, string, number]> = Array.from({ length: 5 }, () => [
        "198.51.100.9",
        PERSON,
        yesterdayNoon,
      ]);
      await writer.write(
        batch([
          ...sameVisitor,
          ["198.51.100.10", PERSON, yesterdayNoon],
          ["198.51.100.11", PERSON, yesterdayNoon],
          ["192.0.2.1", CRAWLER, yesterdayNoon],
        ]),
      );
      expect(await hashesOf(yesterdayNoon)).toBe(3);

      clock = todayNoon; // midnight has passed
      await writer.write(
        batch([
          ["198.51.100.9", PERSON, todayNoon],
          ["198.51.100.9", PERSON, todayNoon + 1000],
        ]),
      );
      expect(await hashesOf(yesterdayNoon)).toBe(0);
      expect(await hashesOf(todayNoon)).toBe(1);
      // A view stamped before midnight that reaches the writer after it closed the day is a view, not a visitor.
      await writer.write(batch([["198.51.100.12", PERSON, yesterdayNoon + 1]]));
      expect(await hashesOf(yesterdayNoon)).toBe(0);

      expect(await days()).toEqual([
        { date: new Date(yesterdayNoon).toISOString().slice(0, 10), human: 8, bot: 1, uniqueHumans: 3, scans: 0 },
        { date: new Date(todayNoon).toISOString().slice(0, 10), human: 2, bot: 0, uniqueHumans: 1, scans: 0 },
      ]);
    } finally {
      await writer.close();
    }
  });
});

/** A batch of people's views of one of the owner's links, now. */
function peopleBatch(linkId: number, views: Array<[address: string, agent: string]>) {
  const builder = new ViewBatchBuilder();
  for (const [address, agent] of views)
    builder.add({
      linkId,
      userId: owner.userId,
      isBot: false,
      platform: null,
      address,
      userAgent: agent,
      attribution: null,
      scan: false,
      at: Date.now(),
    });
  return builder.take().batch;
}

describe("the writer's memo of today's visitors", () => {
  test("a batch the database refused counts its visitors once written again; one visitor twice in a batch is one", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "refused" });
    const postgres = server.ctx.config.postgres !== null;
    const refuse = postgres
      ? [
          "CREATE FUNCTION refuse_views() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$",
          "CREATE TRIGGER refuse_views BEFORE INSERT ON views FOR EACH ROW EXECUTE FUNCTION refuse_views()",
        ]
      : ["CREATE TRIGGER refuse_views BEFORE INSERT ON views BEGIN SELECT RAISE(ABORT, 'disk full'); END"];
    const allow = postgres
      ? ["DROP TRIGGER refuse_views ON views", "DROP FUNCTION refuse_views()"]
      : ["DROP TRIGGER refuse_views"];
    const writer = writerWithClock(Date.now);
    const batch = (views: Array<[address: string, agent: string]>) => peopleBatch(linkId, views);
    try {
      await writer.write(batch([["198.51.100.20", PERSON]]));
      const refused = batch([
        ["198.51.100.21", PERSON],
        ["198.51.100.21", PERSON],
        ["198.51.100.22", OTHER_PERSON],
      ]);
      for (const statement of refuse) await server.sql.run(statement);
      await expect(writer.write(refused)).rejects.toThrow("disk full");
      for (const statement of allow) await server.sql.run(statement);
      // Sent again, as the PostgreSQL writer retries a refused batch: its two visitors are new.
      await writer.write(refused);
      expect((await counts(linkId, "refused")).day).toMatchObject({ human: 4, uniqueHumans: 3 });
      // And they are known now.
      await writer.write(
        batch([
          ["198.51.100.21", PERSON],
          ["198.51.100.22", OTHER_PERSON],
        ]),
      );
      expect((await counts(linkId, "refused")).day).toMatchObject({ human: 6, uniqueHumans: 3 });
    } finally {
      await writer.close();
    }
  });
});

describe("a batch sealed for the spool (views/view-seal.ts)", () => {
  test("holds no full address, is stored truncated, and counts each person once, also against later unsealed views", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "sealed" });
    const writer = writerWithClock(Date.now);
    const batch = (views: Array<[address: string, agent: string]>) => peopleBatch(linkId, views);
    try {
      // Two neighbours of one /24 are two people: the hashes were taken from the full addresses.
      const sealed = writer.seal(
        batch([
          ["203.0.113.77", PERSON],
          ["203.0.113.77", PERSON],
          ["203.0.113.78", PERSON],
          ["2001:db8:1:2:3:4:5:6", OTHER_PERSON],
        ]),
      );
      expect([...new Set(Array.from(sealed.address, (index) => sealed.strings[index]))].sort()).toEqual([
        "2001:db8:1::",
        "203.0.113.0",
      ]);
      for (const full of ["203.0.113.77", "203.0.113.78", "2001:db8:1:2"])
        expect(sealed.strings.join("\n")).not.toContain(full);
      await writer.write(sealed);
      expect((await counts(linkId, "sealed")).day).toMatchObject({ human: 4, uniqueHumans: 3 });
      // The same people after the spool drained, as the writer sends them: known already.
      await writer.write(
        batch([
          ["203.0.113.77", PERSON],
          ["203.0.113.78", PERSON],
        ]),
      );
      expect((await counts(linkId, "sealed")).day).toMatchObject({ human: 6, uniqueHumans: 3 });
      const stored = await server.sql.all<{ ip: string }>(
        "SELECT DISTINCT ip FROM views WHERE link_id = ? ORDER BY ip",
        linkId,
      );
      expect(stored.map((row) => row.ip)).toEqual(["2001:db8:1::", "203.0.113.0"]);
    } finally {
      await writer.close();
    }
  });
});

/** The dark modules of the SVG qrSvg draws (a path of `M x y h n v1 h-n z` runs), as RGBA pixels `scale` per module. */
function rasteriseSvg(svg: string, scale = 4): { data: Uint8ClampedArray; side: number } {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const d = /<path[^>]* d="([^"]*)"/.exec(svg);
  if (!viewBox || !d) throw new Error("not the SVG expected");
  const modules = Number(viewBox[1]);
  const side = modules * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [, x, y, n] of d[1]!.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let row = Number(y) * scale; row < (Number(y) + 1) * scale; row++) {
      for (let col = Number(x) * scale; col < (Number(x) + Number(n)) * scale; col++)
        data.fill(0, (row * side + col) * 4, (row * side + col) * 4 + 3);
    }
  }
  return { data, side };
}

describe("QR codes", () => {
  let linkId: number;
  const shortUrl = "https://lp.example/go/owner/poster";
  beforeAll(async () => {
    linkId = await seedLink(server.sql, owner.userId, { linkSlug: "poster", targetUrl: TARGET });
  });

  test("the SVG (the default, 512 px) decodes to the short URL with the scan marker", async () => {
    const response = await owner.call(`/api/links/${linkId}/qr`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("content-disposition")).toBe('inline; filename="poster-qr.svg"');
    const svg = await response.text();
    expect(svg).toContain('width="512" height="512"');
    const { data, side } = rasteriseSvg(svg);
    expect(jsQR(data, side, side)?.data).toBe(`${shortUrl}?qr=1`);
  });

  test("the PNG has the size asked for, whole-pixel modules, and decodes to the same URL", async () => {
    await loadPngCodec();
    for (const size of [128, 300]) {
      const response = await owner.call(`/api/links/${linkId}/qr?format=png&size=${size}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      const image = await decodePng(await response.arrayBuffer());
      expect([image.width, image.height]).toEqual([size, size]);
      // Crisp: black and white only, no grey from scaling.
      const grey = image.data.some((value, i) => i % 4 !== 3 && value !== 0 && value !== 255);
      expect(grey).toBe(false);
      expect(jsQR(image.data as Uint8ClampedArray, size, size)?.data).toBe(`${shortUrl}?qr=1`);
    }
    // The largest: its header says 2048 × 2048 (decoding it all would only slow the test down).
    const largest = new DataView(
      await (await owner.call(`/api/links/${linkId}/qr?format=png&size=2048`)).arrayBuffer(),
    );
    expect([largest.getUint32(16), largest.getUint32(20)]).toEqual([2048, 2048]);
  });

  test("a styled code (colours, dots, dot finders, H) decodes; a style that would not scan is a 400 naming why", async () => {
    await loadPngCodec();
    const styled = await owner.call(
      `/api/links/${linkId}/qr?format=png&size=400&fg=%231A237E&bg=%23fff8e1&shape=dots&finder=dot&margin=3&ecc=H`,
    );
    expect(styled.status).toBe(200);
    const image = await decodePng(await styled.arrayBuffer());
    expect(jsQR(image.data as Uint8ClampedArray, 400, 400)?.data).toBe(`${shortUrl}?qr=1`);
    const svg = await (await owner.call(`/api/links/${linkId}/qr?fg=%23004d40&bg=%23e0f2f1&shape=rounded`)).text();
    expect(svg).toContain('fill="#e0f2f1"');
    for (const [query, message] of [
      ["fg=%23ffffff&bg=%23000000", "lighter than bg"],
      ["fg=%23999999&bg=%23ffffff", "too little contrast to scan: 2.85:1, at least 3:1 needed"],
      ["fg=red", "fg must be a colour #rrggbb"],
      ["shape=hearts", "shape must be square, rounded or dots"],
      ["margin=1", "margin must be at least 2 modules"],
      ["ecc=X", "ecc must be L, M, Q or H"],
    ]) {
      const refused = await owner.call(`/api/links/${linkId}/qr?${query}`);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toContain(message!);
    }
  });

  test("a scan through the code's URL is a person's view and a scan; the target gets no marker; a crawler is no scan", async () => {
    const { data, side } = rasteriseSvg(await (await owner.call(`/api/links/${linkId}/qr`)).text());
    const scanned = new URL(jsQR(data, side, side)!.data);
    const response = await go(`${scanned.pathname}${scanned.search}`, PERSON, "198.51.100.50");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(TARGET);
    const card = await go(`${scanned.pathname}${scanned.search}`, CRAWLER, "192.0.2.50");
    expect(card.status).toBe(200);
    await go("/go/owner/poster", PERSON, "198.51.100.51");
    await go("/go/owner/poster?qr=0", PERSON, "198.51.100.52");
    const { day, link } = await counts(linkId, "poster");
    expect(day).toMatchObject({ human: 3, bot: 1, scans: 1, uniqueHumans: 3 });
    expect(link).toMatchObject({ viewsHuman: 3, viewsBot: 1, scans: 1 });
  });

  test("size and format are checked, with messages that say what is wrong", async () => {
    const cases: Array<[string, string]> = [
      ["size=127", "size must be at least 128"],
      ["size=2049", "size must be 2048 or less"],
      ["size=big", "size must be a number"],
      ["size=300.5", "size must be a whole number of pixels"],
      ["format=gif", "format must be svg or png"],
    ];
    for (const [query, message] of cases) {
      const response = await owner.call(`/api/links/${linkId}/qr?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
  });

  test("another user's link, a deleted link and an unknown id are 404", async () => {
    const stranger = await apiClient(server, "pro");
    expect((await stranger.call(`/api/links/${linkId}/qr`)).status).toBe(404);
    const gone = await seedLink(server.sql, owner.userId, { linkSlug: "gone-poster" });
    await server.sql.run("UPDATE links SET deleted = ?, deleted_at = ? WHERE id = ?", true, new Date(), gone);
    expect((await owner.call(`/api/links/${gone}/qr`)).status).toBe(404);
    expect((await owner.call("/api/links/999999/qr")).status).toBe(404);
  });
});

describe("the CLI", () => {
  const home = mkdtempSync(join(tmpdir(), "linkprev-cli-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  let options: CliOptions;
  beforeAll(async () => {
    const { token } = await seedApiToken(server.sql, owner.userId, "cli");
    options = cliAtHome(server, token, home);
    await seedLink(server.sql, owner.userId, { linkSlug: "flyer", targetUrl: TARGET });
  });
  const run = (...args: string[]) => runCliForBytes(args, options);
  const flyerUrl = "https://lp.example/go/owner/flyer?qr=1";

  test("links qr --svg prints a code that decodes to the short URL with the marker; --png writes one", async () => {
    const svg = await run("links", "qr", "flyer", "--svg");
    expect(svg.code).toBe(0);
    const { data, side } = rasteriseSvg(new TextDecoder().decode(svg.stdout));
    expect(jsQR(data, side, side)?.data).toBe(flyerUrl);

    const file = join(home, "code.png");
    const png = await run("links", "qr", "flyer", "--png", file, "--size", "256");
    expect(png.code).toBe(0);
    await loadPngCodec();
    const image = await decodePng(readFileSync(file).buffer as ArrayBuffer);
    expect(image.width).toBe(256);
    expect(jsQR(image.data as Uint8ClampedArray, 256, 256)?.data).toBe(flyerUrl);

    const tooSmall = await run("links", "qr", "flyer", "--png", file, "--size", "64");
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stderr).toContain("size must be at least 128");
  });

  test("links qr --fg --bg --shape --finder --ecc draws a styled code that decodes; one that would not scan is refused", async () => {
    const file = join(home, "styled.png");
    const styled = await run(
      "links",
      "qr",
      "flyer",
      "--png",
      file,
      "--size",
      "300",
      "--fg",
      "#1a237e",
      "--bg",
      "#fff8e1",
      "--shape",
      "rounded",
      "--finder",
      "rounded",
      "--margin",
      "3",
      "--ecc",
      "Q",
    );
    expect(styled.code).toBe(0);
    await loadPngCodec();
    const image = await decodePng(readFileSync(file).buffer as ArrayBuffer);
    expect(jsQR(image.data as Uint8ClampedArray, 300, 300)?.data).toBe(flyerUrl);
    const faint = await run("links", "qr", "flyer", "--svg", "--fg", "#aaaaaa");
    expect(faint.code).toBe(1);
    expect(faint.stderr).toContain("too little contrast to scan");
    const terminal = await run("links", "qr", "flyer", "--shape", "dots");
    expect(terminal.code).toBe(2);
    expect(terminal.stderr).toContain("style --svg and --png only");
  });

  test("links qr with no format asks for one when stdout is not a terminal", async () => {
    const result = await run("links", "qr", "flyer");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--svg");
  });

  test("links stats and show name the daily unique visitors and the scans", async () => {
    await go("/go/owner/flyer?qr=1", PERSON, "198.51.100.80");
    await go("/go/owner/flyer", PERSON, "198.51.100.80");
    await server.flushViews();
    const stats = new TextDecoder().decode((await run("links", "stats", "flyer", "--days", "1")).stdout);
    expect(stats).toContain("2 human, 0 bot, 1 daily unique visitor (summed), 1 QR scan in all");
    expect(stats).toMatch(new RegExp(`${today()}\\s+2\\s+0\\s+1\\s+1`));
    const show = new TextDecoder().decode((await run("links", "show", "flyer")).stdout);
    expect(show).toContain("Visitors     1 (daily unique visitors, summed)");
    expect(show).toContain("QR scans     1");
  });
});
