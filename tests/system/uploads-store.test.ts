// Uploaded images in each store UPLOADS_STORE offers — files in DATA_DIR (dir), S3-compatible storage (s3,
// against a fake S3 that checks every signature) and PostgreSQL (db) — through real servers: an upload is
// served with the same bytes and headers, a replaced image is gone from the store, the start-up sweep keeps
// young unreferenced uploads on PostgreSQL and removes old ones, and an image uploaded through one node is
// served by another. PostgreSQL servers run as `linkprev serve` processes (one engine per process).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { apiTokenFor } from "../../src/admin/access.ts";
import { startFakeS3, type FakeS3 } from "../fakes/s3.ts";
import { jpegSize, makePng } from "../helpers/images.ts";
import { apiCall, linkForm, seedPgUserWithToken, startNode, stopNode, type Node } from "../helpers/nodes.ts";
import {
  createDatabase,
  findPgBin,
  randomDatabaseName,
  startThrowawayCluster,
  type ThrowawayCluster,
} from "../helpers/postgres-cluster.ts";
import { acceptTerms, startTestServer, type TestServer } from "../helpers/server.ts";

const pgAvailable = findPgBin() !== null;
if (!pgAvailable)
  console.warn(
    "PostgreSQL is not installed (apt-get install postgresql): the UPLOADS_STORE=db and multi-node upload tests are skipped",
  );

const HOUR_MS = 3_600_000;
const NAME = /^\/uploads\/([a-z0-9]{32}\.jpg)$/;
/** A valid upload name that no store holds. */
const UNKNOWN = `${"q".repeat(32)}.jpg`;

type Store = { bytes(name: string): Promise<Uint8Array | null> };

const fields = (slug: string) => ({
  title: "Launch",
  description: "Day one",
  targetUrl: "https://example.com/launch",
  customLinkSlug: slug,
});
const png = (width: number, height: number) => ({
  bytes: makePng(width, height),
  name: "cover.png",
  type: "image/png",
});
const nameOf = (imageUrl: string) => NAME.exec(imageUrl)![1]!;
/** Every stored name of an uploaded link: the kept source and its three renditions (docs/decisions/0009). */
const filesOf = (link: { sourceImage: { url: string }; images: Record<string, string> }) =>
  [link.sourceImage.url, ...Object.values(link.images)].map(nameOf);
const same = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

async function expectServed(baseUrl: string, imageUrl: string, stored: Uint8Array): Promise<void> {
  const served = await fetch(`${baseUrl}${imageUrl}`);
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toBe("image/jpeg");
  expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(served.headers.get("x-content-type-options")).toBe("nosniff");
  expect(served.headers.get("content-length")).toBe(String(stored.byteLength));
  expect(same(new Uint8Array(await served.arrayBuffer()), stored)).toBe(true);
}

/** Upload with a new link, serve it, replace it: the old image is gone from the store and 404. */
async function uploadServeReplace(
  baseUrl: string,
  token: string,
  slug: string,
  store: Store,
): Promise<{ oldName: string; imageUrl: string }> {
  const created = await apiCall(baseUrl, token, "/api/links", {
    method: "POST",
    form: linkForm(fields(slug), png(320, 200)),
  });
  expect(created.status).toBe(201);
  const link = await created.json();
  expect(link.imageUrl).toMatch(NAME);
  const stored = await store.bytes(nameOf(link.imageUrl));
  expect(stored).not.toBeNull();
  expect(await jpegSize(stored!)).toEqual({ width: 1200, height: 630 });
  await expectServed(baseUrl, link.imageUrl, stored!);
  await expectServed(baseUrl, link.imageUrl, stored!);

  const replaced = await apiCall(baseUrl, token, `/api/links/by-slug/${slug}`, {
    method: "PUT",
    form: linkForm({ ...fields(slug), imageUrl: "" }, png(80, 50)),
  });
  expect(replaced.status).toBe(200);
  const after = await replaced.json();
  expect(after.imageUrl).toMatch(NAME);
  expect(after.imageUrl).not.toBe(link.imageUrl);
  expect((await fetch(`${baseUrl}${link.imageUrl}`)).status).toBe(404);
  expect(await store.bytes(nameOf(link.imageUrl))).toBeNull();
  await expectServed(baseUrl, after.imageUrl, (await store.bytes(nameOf(after.imageUrl)))!);

  for (const path of [
    "/uploads/..%2Flinkprev.db",
    "/uploads/linkprev.db",
    "/uploads/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    `/uploads/${UNKNOWN}`,
  ]) {
    expect((await fetch(`${baseUrl}${path}`)).status).toBe(404);
  }
  return { oldName: nameOf(link.imageUrl), imageUrl: after.imageUrl };
}

describe("UPLOADS_STORE=dir (the default)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  test("an upload is a file in DATA_DIR/uploads, served with the same bytes; replacing it removes the file", async () => {
    expect(server.ctx.config.uploads).toEqual({ kind: "dir", dir: join(server.dataDir, "uploads") });
    const token = await apiTokenFor(server.ctx.database, "dir@example.com", "test");
    await acceptTerms(server.url, token);
    const file = (name: string) => join(server.dataDir, "uploads", name);
    const { oldName } = await uploadServeReplace(server.url, token, "dir", {
      bytes: async (name) => (existsSync(file(name)) ? new Uint8Array(readFileSync(file(name))) : null),
    });
    expect(existsSync(file(oldName))).toBe(false);
  });
});

describe("UPLOADS_STORE=s3 (a fake S3-compatible store)", () => {
  let s3: FakeS3;
  let server: TestServer;
  beforeAll(async () => {
    s3 = startFakeS3();
    server = await startTestServer(s3.env);
  });
  afterAll(async () => {
    await server?.close();
    s3?.stop();
  });

  test("an upload is an object in the bucket, served with the same bytes; replacing it deletes the object", async () => {
    const token = await apiTokenFor(server.ctx.database, "s3@example.com", "test");
    await acceptTerms(server.url, token);
    const { oldName, imageUrl } = await uploadServeReplace(server.url, token, "s3", {
      bytes: async (name) => s3.objects.get(name)?.bytes ?? null,
    });
    // Nothing went to the data directory, and every request was signed with the configured key.
    expect(readdirSync(join(server.dataDir, "uploads"))).toEqual([]);
    expect(s3.refused).toEqual([]);
    expect(s3.objects.get(nameOf(imageUrl))!.contentType).toBe("image/jpeg");
    // Two uploads, four objects each: the kept source and three renditions (docs/decisions/0009).
    expect(s3.requests.filter((r) => r.startsWith("PUT ")).length).toBe(8);
    expect(s3.requests).toContain(`DELETE /${s3.bucket}/${oldName}`);
  });

  test("hot images are served from the node's memory: the store is asked once", async () => {
    const token = await apiTokenFor(server.ctx.database, "hot@example.com", "test");
    await acceptTerms(server.url, token);
    const created = await (
      await apiCall(server.url, token, "/api/links", { method: "POST", form: linkForm(fields("hot"), png(200, 120)) })
    ).json();
    const name = nameOf(created.imageUrl);
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}${created.imageUrl}`)).status).toBe(200);
    // Cached on upload: no GET at all reached the bucket.
    expect(s3.requests.filter((r) => r === `GET /${s3.bucket}/${name}`)).toEqual([]);
  });

  test("a store refusing the signature (wrong secret) is a 503 for the image, and start-up still serves", async () => {
    const wrong = await startTestServer({ ...s3.env, S3_SECRET_ACCESS_KEY: "not-the-secret" });
    try {
      const refusedBefore = s3.refused.length;
      const [anyName] = s3.objects.keys();
      const response = await fetch(`${wrong.url}/uploads/${anyName}`);
      expect(response.status).toBe(503);
      expect(s3.refused.length).toBeGreaterThan(refusedBefore);
      expect(s3.refused.at(-1)!.code).toBe("SignatureDoesNotMatch");
      expect((await fetch(`${wrong.url}/healthz`)).status).toBe(200);
    } finally {
      await wrong.close();
    }
  });

  test("the start-up sweep removes old unreferenced uploads, and never touches keys LinkPrev did not name", async () => {
    const token = await apiTokenFor(server.ctx.database, "sweep@example.com", "test");
    await acceptTerms(server.url, token);
    const kept = await (
      await apiCall(server.url, token, "/api/links", { method: "POST", form: linkForm(fields("kept"), png(64, 64)) })
    ).json();
    await server.close();
    const orphan = `${"o".repeat(32)}.jpg`;
    s3.objects.set(orphan, { bytes: new Uint8Array([1, 2, 3]), contentType: "image/jpeg", lastModified: new Date() });
    s3.objects.set("backups/notes.txt", {
      bytes: new Uint8Array([4]),
      contentType: "text/plain",
      lastModified: new Date(Date.now() - 48 * HOUR_MS),
    });
    // Old enough for the sweep on either engine (PostgreSQL keeps uploads younger than an hour).
    for (const object of s3.objects.values()) object.lastModified = new Date(Date.now() - 2 * HOUR_MS);
    // The same bucket, a fresh database: no link refers to any image any more.
    server = await startTestServer(s3.env);
    expect(s3.objects.has(orphan)).toBe(false);
    expect(s3.objects.has(nameOf(kept.imageUrl))).toBe(false);
    expect(s3.objects.has("backups/notes.txt")).toBe(true);
  });
});

describe("config", () => {
  test("UPLOADS_STORE=db needs PostgreSQL; s3 needs every setting and names the one missing", async () => {
    const { loadConfig } = await import("../../src/config/config.ts");
    expect(() => loadConfig({}, { UPLOADS_STORE: "db" })).toThrow(/UPLOADS_STORE=db .*needs DATABASE_URL/);
    expect(() => loadConfig({}, { UPLOADS_STORE: "nfs" })).toThrow(/UPLOADS_STORE="nfs"/);
    const s3 = {
      UPLOADS_STORE: "s3",
      S3_ENDPOINT: "https://s3.example.com",
      S3_BUCKET: "b",
      S3_ACCESS_KEY_ID: "k",
      S3_SECRET_ACCESS_KEY: "shh",
    };
    for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"]) {
      expect(() => loadConfig({}, { ...s3, [name]: "" })).toThrow(
        new RegExp(`${name} is required when UPLOADS_STORE=s3`),
      );
    }
    expect(() => loadConfig({}, { ...s3, S3_ENDPOINT: "ftp://s3.example.com" })).toThrow(/S3_ENDPOINT="ftp:/);
    expect(loadConfig({}, s3).uploads).toEqual({
      kind: "s3",
      endpoint: "https://s3.example.com",
      bucket: "b",
      region: "us-east-1",
      accessKeyId: "k",
      secretAccessKey: "shh",
    });
    expect(loadConfig({}, { DATABASE_URL: "postgres://x@h/db", UPLOADS_STORE: "db" }).uploads).toEqual({ kind: "db" });
  });
});

describe.skipIf(!pgAvailable)("on PostgreSQL", () => {
  let cluster: ThrowawayCluster;
  const clients: SQL[] = [];
  const nodes: Node[] = [];
  const fakes: FakeS3[] = [];

  async function freshDatabase(): Promise<{ url: string; db: SQL }> {
    const url = await createDatabase(cluster.url, randomDatabaseName());
    const db = new SQL({ url, max: 2 });
    clients.push(db);
    return { url, db };
  }
  async function node(env: Record<string, string>): Promise<Node> {
    const started = await startNode(env);
    nodes.push(started);
    return started;
  }

  beforeAll(async () => {
    cluster = await startThrowawayCluster();
  });
  afterAll(async () => {
    for (const n of nodes) await stopNode(n, { signal: "SIGKILL" });
    for (const db of clients) await db.close();
    for (const fake of fakes) fake.stop();
    await cluster?.stop();
  });

  test("UPLOADS_STORE=db: uploads are rows of `uploads`, served with the same bytes; replacing one deletes its row", async () => {
    const { url, db } = await freshDatabase();
    const a = await node({ DATABASE_URL: url, UPLOADS_STORE: "db" });
    const { token } = await seedPgUserWithToken(db, "dbstore");
    const bytes = async (name: string) => {
      const [row] = await db`SELECT bytes, content_type FROM uploads WHERE name = ${name}`;
      if (row) expect(row.content_type).toBe("image/jpeg");
      return row ? new Uint8Array(row.bytes) : null;
    };
    await uploadServeReplace(a.url, token, "pic", { bytes });
    expect(readdirSync(join(a.dataDir, "uploads"))).toEqual([]);
    await stopNode(a);
    expect(await a.stderr).not.toContain("UPLOADS_STORE=dir");
  });

  test("UPLOADS_STORE=db: the start-up sweep keeps a young unreferenced upload (another node may be committing its link) and removes an old one", async () => {
    const { url, db } = await freshDatabase();
    const first = await node({ DATABASE_URL: url, UPLOADS_STORE: "db" });
    const { token } = await seedPgUserWithToken(db, "sweeper");
    const link = await (
      await apiCall(first.url, token, "/api/links", { method: "POST", form: linkForm(fields("keep"), png(64, 64)) })
    ).json();
    await stopNode(first);
    const young = `${"y".repeat(32)}.jpg`;
    const old = `${"z".repeat(32)}.jpg`;
    await db`INSERT INTO uploads (name, content_type, bytes) VALUES (${young}, 'image/jpeg', ${new Uint8Array([1])})`;
    await db`INSERT INTO uploads (name, content_type, bytes, created_at) VALUES (${old}, 'image/jpeg', ${new Uint8Array([2])}, now() - interval '2 hours')`;
    const oldReferenced = filesOf(link);
    await db`UPDATE uploads SET created_at = now() - interval '2 hours' WHERE name IN ${db(oldReferenced)}`;

    const second = await node({ DATABASE_URL: url, UPLOADS_STORE: "db" });
    const names = (await db`SELECT name FROM uploads ORDER BY name`).map((row: { name: string }) => row.name);
    expect(names).toEqual([...oldReferenced, young].sort());
    expect((await fetch(`${second.url}${link.imageUrl}`)).status).toBe(200);
    await stopNode(second);
    expect(await second.stdout).toContain("Removed 1 uploaded image(s)");
  });

  test("UPLOADS_STORE=db, two nodes: an image uploaded through A is served by B", async () => {
    const { url, db } = await freshDatabase();
    const [a, b] = await Promise.all([
      node({ DATABASE_URL: url, UPLOADS_STORE: "db", NODE_SLOT: "1" }),
      node({ DATABASE_URL: url, UPLOADS_STORE: "db", NODE_SLOT: "2" }),
    ]);
    const { token } = await seedPgUserWithToken(db, "twins");
    const link = await (
      await apiCall(a.url, token, "/api/links", { method: "POST", form: linkForm(fields("shared"), png(300, 300)) })
    ).json();
    const [row] = await db`SELECT bytes FROM uploads WHERE name = ${nameOf(link.imageUrl)}`;
    await expectServed(b.url, link.imageUrl, new Uint8Array(row.bytes));
    // And the crawler card B renders points at it (X's rendition for X).
    const card = await (
      await fetch(`${b.url}/go/twins/shared`, { headers: { "user-agent": "Twitterbot/1.0" } })
    ).text();
    expect(card).toContain(link.images.x);
  });

  test("UPLOADS_STORE=s3, two nodes: an image uploaded through A is served by B; the sweep keeps young objects and removes old ones", async () => {
    const s3 = startFakeS3({ bucket: "shared-bucket" });
    fakes.push(s3);
    const { url, db } = await freshDatabase();
    const env = { DATABASE_URL: url, ...s3.env };
    const [a, b] = await Promise.all([node({ ...env, NODE_SLOT: "1" }), node({ ...env, NODE_SLOT: "2" })]);
    const { token } = await seedPgUserWithToken(db, "cloud");
    const link = await (
      await apiCall(a.url, token, "/api/links", { method: "POST", form: linkForm(fields("shared"), png(300, 300)) })
    ).json();
    await expectServed(b.url, link.imageUrl, s3.objects.get(nameOf(link.imageUrl))!.bytes);
    expect(s3.requests).toContain(`GET /${s3.bucket}/${nameOf(link.imageUrl)}`);

    await Promise.all([stopNode(a), stopNode(b)]);
    const young = `${"y".repeat(32)}.jpg`;
    const old = `${"z".repeat(32)}.jpg`;
    s3.objects.set(young, { bytes: new Uint8Array([1]), contentType: "image/jpeg", lastModified: new Date() });
    s3.objects.set(old, {
      bytes: new Uint8Array([2]),
      contentType: "image/jpeg",
      lastModified: new Date(Date.now() - 2 * HOUR_MS),
    });
    for (const name of filesOf(link)) s3.objects.get(name)!.lastModified = new Date(Date.now() - 2 * HOUR_MS);
    const c = await node(env);
    expect([...s3.objects.keys()].sort()).toEqual([...filesOf(link), young].sort());
    expect((await fetch(`${c.url}${link.imageUrl}`)).status).toBe(200);
    expect(s3.refused).toEqual([]);
  });

  test("UPLOADS_STORE=dir with DATABASE_URL: one warning at start that uploads stay on this node", async () => {
    const { url } = await freshDatabase();
    const n = await node({ DATABASE_URL: url });
    await stopNode(n);
    const warnings = (await n.stderr).split("\n").filter((line) => line.includes("UPLOADS_STORE=dir"));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain("fine for one node");
  });
});
