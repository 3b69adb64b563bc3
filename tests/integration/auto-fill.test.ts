// Auto-fill and image import over real HTTP and a real database: POST /api/links/metadata, imageImportUrl, and
// every refusal of the safe fetcher as a 422 saying why. Three servers: `lab` may reach 127.0.0.1 (FETCH_ALLOW_PRIVATE,
// as a self-hoster's intranet would be) with a short test deadline; `closed` has the defaults (nothing inside);
// `off` has FETCH_DISABLED=true. Pages come from a fake web on loopback (tests/fakes/web.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeWeb, type FakeWeb } from "../fakes/web.ts";
import { jpegSize, makePng } from "../helpers/images.ts";
import { apiClient, seedApiToken, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";
import { eventually, isTrue } from "../helpers/eventually.ts";

const LAB_DEADLINE_MS = 1500;
let web: FakeWeb;
let lab: TestServer;
let closed: TestServer;
let off: TestServer;

beforeAll(async () => {
  web = startFakeWeb();
  [lab, closed, off] = await Promise.all([
    startTestServer({ FETCH_ALLOW_PRIVATE: "127.0.0.1/32", TEST_FETCH_DEADLINE_MS: String(LAB_DEADLINE_MS) }),
    startTestServer(),
    startTestServer({ FETCH_DISABLED: "true" }),
  ]);
});
afterAll(async () => {
  await Promise.all([lab.close(), closed.close(), off.close()]);
  web.stop();
});

const metadata = (client: ApiClient, url: unknown) =>
  client.call("/api/links/metadata", { method: "POST", json: { url } });

async function refusal(client: ApiClient, url: string): Promise<string> {
  const response = await metadata(client, url);
  const body = (await response.json()) as { message: string };
  expect({ status: response.status, url }).toEqual({ status: 422, url });
  expect(JSON.stringify(body)).not.toContain("<html");
  return body.message;
}

const uploadsIn = (server: TestServer) => {
  try {
    return readdirSync(join(server.dataDir, "uploads")).length;
  } catch {
    return 0;
  }
};

describe("extraction from real-world-shaped pages", () => {
  test("og over twitter over <title>; entities decoded; whitespace collapsed; relative og:image made absolute", async () => {
    const response = await metadata(await apiClient(lab, "pro"), `${web.url}/news`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      title: `Rock & roll's "comeback" year`,
      description: "Why guitars are back — and what it means for the charts — in 2026.",
      imageUrl: `${web.url}/images/cover.png`,
      siteName: "The Daily & Example",
    });
    expect(web.requests.at(-1)?.userAgent).toBe(`LinkPrevBot/1.0 (+${lab.ctx.config.publicUrl})`);
  });

  test("a page with only <title>: the title, the rest null (an <svg> title later on is not taken)", async () => {
    expect(await (await metadata(await apiClient(lab, "pro"), `${web.url}/title-only`)).json()).toEqual({
      title: "Just a title & nothing else",
      description: null,
      imageUrl: null,
      siteName: null,
    });
  });

  test("a relative og:image resolves against <base href>", async () => {
    expect(await (await metadata(await apiClient(lab, "pro"), `${web.url}/base-href`)).json()).toMatchObject({
      title: "Based",
      imageUrl: "https://static.example.org/assets/img/card.png",
    });
  });

  test("after a redirect, a relative og:image resolves against the final URL", async () => {
    expect(await (await metadata(await apiClient(lab, "pro"), `${web.url}/moved`)).json()).toMatchObject({
      imageUrl: `${web.url}/articles/cover.png`,
    });
  });

  test("values longer than the link form allows are cut to its limits, at a word, with an ellipsis", async () => {
    const { title, description } = (await (await metadata(await apiClient(lab, "pro"), `${web.url}/long`)).json()) as {
      title: string;
      description: string;
    };
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).toMatch(/^(Word )+Word…$/);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.endsWith("…")).toBe(true);
  });

  test("up to three redirects are followed", async () => {
    expect(await (await metadata(await apiClient(lab, "pro"), `${web.url}/hop/2`)).json()).toMatchObject({
      title: `Rock & roll's "comeback" year`,
    });
  });
});

describe("refusals: 422 saying why, never the body", () => {
  test("loopback, by name and as IPv4-mapped IPv6, on a server with the default settings", async () => {
    const client = await apiClient(closed, "pro");
    expect(await refusal(client, `http://localhost:${web.port}/news`)).toBe(
      "Refused: localhost resolves to a loopback address; only public addresses are fetched",
    );
    expect(await refusal(client, `http://127.0.0.1:${web.port}/news`)).toBe(
      "Refused: 127.0.0.1, a loopback address; only public addresses are fetched",
    );
    expect(await refusal(client, `http://[::ffff:127.0.0.1]:${web.port}/news`)).toBe(
      "Refused: 127.0.0.1, a loopback address; only public addresses are fetched",
    );
    expect(await refusal(client, `http://[::ffff:7f00:1]/news`)).toBe(
      "Refused: 127.0.0.1, a loopback address; only public addresses are fetched",
    );
  });

  test("metadata service, private, CGNAT, unique-local, NAT64 and other inside ranges", async () => {
    const client = await apiClient(closed, "pro");
    const cases: Record<string, string> = {
      "http://169.254.169.254/latest/meta-data/":
        "169.254.169.254, a link-local address (such as a cloud metadata service)",
      "http://10.0.0.1/": "10.0.0.1, a private address",
      "http://100.64.0.1/": "100.64.0.1, a carrier-grade NAT address",
      "http://[fd00::1]/": "fd00::1, a unique-local address",
      "http://[fd00:ec2::254]/": "fd00:ec2::254, a unique-local address",
      "http://[64:ff9b::7f00:1]/": "64:ff9b::7f00:1, a NAT64 address",
      "http://[2002:a9fe:a9fe::]/": "2002:a9fe:a9fe::, a 6to4 address",
      "http://[::ffff:169.254.169.254]/": "169.254.169.254, a link-local address (such as a cloud metadata service)",
      "http://0.0.0.0/": "0.0.0.0, an unspecified address",
      "http://224.0.0.1/": "224.0.0.1, a multicast address",
      "http://198.18.0.1/": "198.18.0.1, a reserved address",
    };
    const seen: Record<string, string> = {};
    for (const url of Object.keys(cases)) seen[url] = await refusal(client, url);
    expect(seen).toEqual(
      Object.fromEntries(
        Object.entries(cases).map(([url, why]) => [url, `Refused: ${why}; only public addresses are fetched`]),
      ),
    );
  });

  test("a port other than 80 and 443 on a public address (nothing is connected to)", async () => {
    const client = await apiClient(closed, "pro");
    expect(await refusal(client, "http://93.184.215.14:8080/")).toBe(
      "Port 8080 is not allowed: only ports 80 and 443 are fetched",
    );
    expect(await refusal(client, "https://[2606:4700::1111]:22/")).toBe(
      "Port 22 is not allowed: only ports 80 and 443 are fetched",
    );
  });

  test("a public-looking redirect chain that ends at 169.254.169.254", async () => {
    expect(await refusal(await apiClient(lab, "pro"), `${web.url}/chain`)).toBe(
      "Refused: 169.254.169.254, a link-local address (such as a cloud metadata service); only public addresses are fetched",
    );
  });

  test("more than three redirects", async () => {
    expect(await refusal(await apiClient(lab, "pro"), `${web.url}/hop/3`)).toBe("Too many redirects (more than 3)");
  });

  test("a 10 MB page: read no further than 512 KB, and what was read is used", async () => {
    const response = await metadata(await apiClient(lab, "pro"), `${web.url}/huge`);
    // The title (first bytes) is used; the description that comes after 600 KB was never read.
    expect(await response.json()).toEqual({ title: "Huge page", description: null, imageUrl: null, siteName: null });
    // And the fetcher hung up rather than taking the rest (socket buffers hold a few MB, so no byte count here).
    await eventually(() => isTrue(web.hugeAbandoned(), "the fetcher hung up"), {
      what: "the fetcher to hang up",
      timeoutMs: 2000,
    });
  });

  test("a slow-loris page (headers, then a byte a second) is cut off at the deadline", async () => {
    const started = Date.now();
    expect(await refusal(await apiClient(lab, "pro"), `${web.url}/slow`)).toBe(
      "The page took longer than 1.5 seconds to arrive",
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(LAB_DEADLINE_MS - 50);
    expect(took).toBeLessThan(LAB_DEADLINE_MS + 2000);
  });

  test("not HTML, an error status, and an address nothing listens on", async () => {
    const client = await apiClient(lab, "pro");
    expect(await refusal(client, `${web.url}/json`)).toBe(
      "The address did not return an HTML page (it sent application/json)",
    );
    expect(await refusal(client, `${web.url}/image`)).toBe(
      "The address did not return an HTML page (it sent image/png)",
    );
    expect(await refusal(client, `${web.url}/missing`)).toBe("The address answered HTTP 404");
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    expect(await refusal(client, `http://127.0.0.1:${port}/`)).toBe("Could not connect to 127.0.0.1");
  });

  test("a bad URL is a 400 naming the field; fetches are limited per user", async () => {
    const client = await apiClient(closed, "pro");
    const bad = await metadata(client, "javascript:alert(1)");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: "url: Please enter a valid URL", field: "url" });
    expect((await metadata(client, 42)).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await metadata(client, "http://10.0.0.1/")).status);
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another user has their own count.
    expect((await metadata(await apiClient(closed, "pro"), "http://10.0.0.1/")).status).toBe(422);
  });
});

describe("images imported on acceptance", () => {
  const card = { title: "Imported", description: "An image from the page", targetUrl: "https://example.com/post" };

  test("imageImportUrl stores a normalised upload, exactly as an uploaded file would be", async () => {
    const client = await apiClient(lab, "pro");
    const response = await client.call("/api/links", {
      method: "POST",
      json: { ...card, imageImportUrl: `${web.url}/images/cover.png` },
    });
    expect(response.status).toBe(201);
    const link = await response.json();
    expect(link.imageUrl).toMatch(/^\/uploads\/[a-z2-7]+\.jpg$/);
    expect(link.imageSource).toBe("upload");
    expect(link.sourceImage).toEqual({
      width: 1600,
      height: 900,
      bytes: makePng(1600, 900).byteLength,
      url: expect.stringMatching(/^\/uploads\/[a-z2-7]+\.jpg$/),
    });
    expect(link.images.square).toMatch(/^\/uploads\/[a-z2-7]+\.jpg$/);
    const served = await fetch(`${lab.url}${link.imageUrl}`);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(await jpegSize(new Uint8Array(await served.arrayBuffer()))).toEqual({ width: 1200, height: 630 });
  });

  test("an update imports too (multipart), replacing the image", async () => {
    const client = await apiClient(lab, "pro");
    const created = await (await client.call("/api/links", { method: "POST", json: card })).json();
    const form = new FormData();
    for (const [key, value] of Object.entries(card)) form.append(key, value);
    form.append("imageImportUrl", `${web.url}/image`);
    const response = await client.call(`/api/links/by-slug/${created.linkSlug}`, { method: "PUT", body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      imageUrl: expect.stringMatching(/^\/uploads\//),
      imageSource: "upload",
      sourceImage: { width: 1600, height: 900 },
    });
  });

  test("a file and an import together is a 400", async () => {
    const client = await apiClient(lab, "pro");
    const form = new FormData();
    for (const [key, value] of Object.entries(card)) form.append(key, value);
    form.append("imageImportUrl", `${web.url}/image`);
    form.append("image", new File([makePng(40, 20)], "a.png", { type: "image/png" }));
    const response = await client.call("/api/links", { method: "POST", body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: "imageImportUrl: Upload an image or import one from an address, not both",
      field: "imageImportUrl",
    });
  });

  test("refusals are 422s with the reason, and nothing is stored", async () => {
    const client = await apiClient(lab, "pro");
    const uploadsBefore = uploadsIn(lab);
    const cases: Record<string, string> = {
      [`${web.url}/news`]: "The address did not return an image (it sent text/html)",
      [`${web.url}/image-lies`]: "The image at that address is not a JPEG, PNG or WebP image",
      [`${web.url}/image-huge`]: "The image is larger than 5 MB",
      "http://169.254.169.254/latest/meta-data/iam":
        "Refused: 169.254.169.254, a link-local address (such as a cloud metadata service); only public addresses are fetched",
      [`${web.url}/slow?type=image/png`]: "The image took longer than 1.5 seconds to arrive",
    };
    const seen: Record<string, unknown> = {};
    for (const url of Object.keys(cases)) {
      const response = await client.call("/api/links", { method: "POST", json: { ...card, imageImportUrl: url } });
      seen[url] = { status: response.status, body: await response.json() };
    }
    expect(seen).toEqual(
      Object.fromEntries(
        Object.entries(cases).map(([url, why]) => [
          url,
          { status: 422, body: { message: `imageImportUrl: ${why}`, field: "imageImportUrl" } },
        ]),
      ),
    );
    expect(
      await lab.sql.get<{ n: number }>(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ?",
        client.userId,
      ),
    ).toEqual({ n: 0 });
    expect(uploadsIn(lab)).toBe(uploadsBefore);
  });

  test("a bad imageImportUrl is a 400 naming the field", async () => {
    const response = await (await apiClient(lab, "pro")).call("/api/links", {
      method: "POST",
      json: { ...card, imageImportUrl: "file:///etc/passwd" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: "imageImportUrl: Image import URL must be a valid http(s) URL",
      field: "imageImportUrl",
    });
  });
});

describe("FETCH_DISABLED=true", () => {
  test("the metadata route answers 404 and imports are refused", async () => {
    const client = await apiClient(off, "pro");
    const response = await metadata(client, `${web.url}/news`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Auto-fill is turned off on this server" });
    const create = await client.call("/api/links", {
      method: "POST",
      json: { title: "t", description: "d", targetUrl: "https://example.com/", imageImportUrl: `${web.url}/image` },
    });
    expect(create.status).toBe(400);
    expect(off.ctx.config.fetch.enabled).toBe(false);
    expect(lab.ctx.config.fetch.enabled).toBe(true);
  });
});

describe("linkprev links create --fill", () => {
  /** Runs the CLI against `lab` as a new user (not spawnSync: the fake web answering the server lives here). */
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const client = await apiClient(lab, "pro");
    const { token } = await seedApiToken(lab.sql, client.userId, "cli");
    const home = mkdtempSync(join(tmpdir(), "linkprev-cli-"));
    try {
      const run = Bun.spawn([process.execPath, join(import.meta.dir, "../../cli/linkprev.ts"), ...args], {
        env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, LINKPREV_SERVER: lab.url, LINKPREV_TOKEN: token },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stdout, stderr] = await Promise.all([
        run.exited,
        new Response(run.stdout).text(),
        new Response(run.stderr).text(),
      ]);
      return { code, stdout, stderr };
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  test("fills the missing title and image from the target page, keeps the given description, and says what it filled", async () => {
    const { code, stdout, stderr } = await cli([
      "links",
      "create",
      "--target",
      `${web.url}/news`,
      "--description",
      "My own words",
      "--fill",
      "--json",
    ]);
    expect({ code, stderr }).toMatchObject({ code: 0 });
    expect(stderr).toContain(`title        Rock & roll's "comeback" year`);
    expect(stderr).toContain(`image        ${web.url}/images/cover.png (imported)`);
    expect(stderr).not.toContain("description  ");
    expect(JSON.parse(stdout)).toMatchObject({
      title: `Rock & roll's "comeback" year`,
      description: "My own words",
      imageSource: "upload",
      imageUrl: expect.stringMatching(/^\/uploads\//),
    });
  });

  test("what neither the options nor the page give is a usage error naming the option", async () => {
    const missing = await cli(["links", "create", "--target", `${web.url}/title-only`, "--fill"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("The target page has no description: give --description");
    const noFill = await cli(["links", "create", "--target", `${web.url}/news`, "--description", "d"]);
    expect(noFill.code).toBe(2);
    expect(noFill.stderr).toContain("--title is required (or --fill to take it from the target page)");
  });
});
