// Saved QR styles and logos over HTTP and a real database (SQLite or PostgreSQL; issue 52, decision 0067): the
// account's default style and logo, a link's own style, what GET /api/links/{id}/qr draws from them (decoded by
// jsqr, not the library that drew it), and the styles refused because they would not scan.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQR from "jsqr";
import { cliAtHome, runCli, type CliOptions } from "../helpers/cli.ts";
import { makePng } from "../helpers/images.ts";
import { rasterise } from "../helpers/qr-raster.ts";
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { apiClient, seedApiToken, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;
let linkId: number;
const CODE_TEXT = "https://lp.example/go/styler/menu?qr=1";

type QrDefault = { style: Record<string, unknown>; logo: { width: number; height: number } | null };
type LinkJson = { id: number; qrStyle: Record<string, unknown> | null };

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example" });
  owner = await apiClient(server, "pro", "styler");
  const created = await owner.call("/api/links", {
    method: "POST",
    json: { title: "Menu", description: "Our menu", targetUrl: "https://example.com/menu", customLinkSlug: "menu" },
  });
  linkId = ((await created.json()) as LinkJson).id;
  await loadPngCodec();
});
afterAll(() => server.close());

const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect({ status: response.status }).toEqual({ status });
  return (await response.json()) as T;
};
const refusal = async (response: Response) => (await json<{ message: string }>(response, 400)).message;
const putStyle = (style: unknown) => owner.call("/api/qr-style", { method: "PUT", json: style });
const uploadLogo = (bytes: Uint8Array<ArrayBuffer>, type = "image/png") => {
  const form = new FormData();
  form.append("logo", new File([bytes], "logo.png", { type }));
  return owner.call("/api/qr-style/logo", { method: "POST", body: form });
};
/** The code as drawn: the SVG's text and what jsqr reads from it. */
const svgCode = async (query = "") => {
  const response = await owner.call(`/api/links/${linkId}/qr${query}`);
  expect(response.status).toBe(200);
  const svg = await response.text();
  const { data, side } = await rasterise(svg);
  return { svg, decoded: jsQR(data, side, side)?.data };
};
const pngDecoded = async (query: string) => {
  const response = await owner.call(`/api/links/${linkId}/qr?format=png&size=600${query}`);
  expect(response.status).toBe(200);
  return jsQR((await decodePng(await response.arrayBuffer())).data as Uint8ClampedArray, 600, 600)?.data;
};

/** A PNG whose header declares 10000×10000 pixels (400 MB decoded) in a few dozen bytes. */
function declaredHugePng(): Uint8Array<ArrayBuffer> {
  const png = makePng(4, 4);
  const view = new DataView(png.buffer);
  view.setUint32(16, 10000);
  view.setUint32(20, 10000);
  return png;
}

describe("the account's default style", () => {
  test("starts as the built-in black on white; a PUT sets it, and a link without its own style is drawn in it", async () => {
    const start = await json<QrDefault>(await owner.call("/api/qr-style"));
    expect(start).toEqual({
      style: {
        fg: "#000000",
        bg: "#ffffff",
        shape: "square",
        finder: "square",
        margin: 4,
        ecc: "M",
        inverted: false,
        logo: false,
        logoSize: 0.2,
      },
      logo: null,
    });
    const set = await json<QrDefault>(
      await putStyle({ fg: "#1A237E", bg: "#fff8e1", shape: "dots", finder: "rounded" }),
    );
    expect(set.style).toMatchObject({ fg: "#1a237e", bg: "#fff8e1", shape: "dots", finder: "rounded", margin: 4 });
    expect((await json<QrDefault>(await owner.call("/api/qr-style"))).style).toEqual(set.style);
    const { svg, decoded } = await svgCode();
    expect(svg).toContain('fill="#1a237e"');
    expect(decoded).toBe(CODE_TEXT);
    // Another account's default is its own.
    const other = await apiClient(server, "pro");
    expect((await json<QrDefault>(await other.call("/api/qr-style"))).style.fg).toBe("#000000");
  });

  test("a style that would not scan is refused with a 400 naming why; inverted colours only when asked for", async () => {
    expect(await refusal(await putStyle({ fg: "#999999" }))).toContain("too little contrast to scan: 2.85:1");
    expect(await refusal(await putStyle({ fg: "#ffffff", bg: "#1a237e" }))).toContain("or ask for inverted");
    expect(await refusal(await putStyle({ logo: true }))).toContain("no logo uploaded yet");
    expect(await refusal(await putStyle({ shape: "hearts" }))).toContain("shape must be square, rounded or dots");
    expect(await refusal(await putStyle({ colour: "#000000" }))).toContain(
      "unknown field colour: a QR style has fg, bg,",
    );
    expect(await refusal(await owner.call(`/api/links/${linkId}/qr?fg=%23ffffff&bg=%231a237e`))).toContain(
      "or ask for inverted",
    );
    expect(await pngDecoded("&fg=%23ffffff&bg=%231a237e&inverted=1")).toBe(CODE_TEXT);
    const inverted = await json<QrDefault>(await putStyle({ fg: "#ffffff", bg: "#1a237e", inverted: true }));
    expect(inverted.style).toMatchObject({ fg: "#ffffff", inverted: true });
    expect(await pngDecoded("")).toBe(CODE_TEXT);
  });
});

describe("the logo", () => {
  test("goes through the image pipeline: bounded, its header checked before decoding; non-images refused", async () => {
    expect(await refusal(await uploadLogo(declaredHugePng()))).toContain("the most we accept is 40 megapixels");
    expect(await refusal(await uploadLogo(new TextEncoder().encode("<svg/>"), "image/svg+xml"))).toBe(
      "Please select an image file",
    );
    expect((await uploadLogo(new Uint8Array(5 * 1024 * 1024 + 1))).status).toBe(413);
    const stored = await json<QrDefault>(await uploadLogo(makePng(1200, 600, { pattern: "quarters" })));
    expect(stored.logo).toEqual({ width: 512, height: 256 });
  });

  test("logo=1 raises the level to H, clears the modules under it and still decodes; too large is a 400", async () => {
    await putStyle({ fg: "#000000", bg: "#ffffff" });
    const plain = await svgCode("?ecc=L");
    const { svg, decoded } = await svgCode("?ecc=L&logo=1&logoSize=0.3");
    expect(svg).toContain('<image x="');
    expect(svg).toContain('href="data:image/png;base64,');
    expect(decoded).toBe(CODE_TEXT);
    const modules = (text: string) => Number(/viewBox="0 0 (\d+) /.exec(text)![1]);
    expect(modules(svg)).toBeGreaterThan(modules(plain.svg));
    expect(await pngDecoded("&logo=1&logoSize=0.38&shape=dots&finder=dot")).toBe(CODE_TEXT);
    expect(await refusal(await owner.call(`/api/links/${linkId}/qr?logo=1&logoSize=0.4`))).toBe(
      "logoSize 0.4 is too large for error correction H: the logo would cover 16% of the code, at most 15% scans (logoSize 0.38 or less)",
    );
    expect(await refusal(await putStyle({ logo: true, logoSize: 0.45 }))).toContain("too large for error correction H");
  });

  test("a saved style with the logo draws it; once removed, the style is drawn without it and logo=1 is refused", async () => {
    await json<QrDefault>(await putStyle({ logo: true, logoSize: 0.25, shape: "rounded" }));
    expect((await svgCode()).svg).toContain("<image ");
    const removed = await json<QrDefault>(await owner.call("/api/qr-style/logo", { method: "DELETE" }));
    expect(removed.logo).toBeNull();
    const { svg, decoded } = await svgCode();
    expect(svg).not.toContain("<image ");
    expect(decoded).toBe(CODE_TEXT);
    expect(await refusal(await owner.call(`/api/links/${linkId}/qr?logo=1`))).toContain("no logo uploaded yet");
  });
});

describe("a link's own style", () => {
  test("is set on create and update (JSON and multipart), shown on the link, drawn before the default; null follows the default", async () => {
    await putStyle({ fg: "#004d40", bg: "#e0f2f1" });
    const body = { title: "Flyer", description: "Spring flyer", targetUrl: "https://example.com/flyer" };
    const created = await json<LinkJson>(
      await owner.call("/api/links", {
        method: "POST",
        json: { ...body, customLinkSlug: "flyer", qrStyle: { fg: "#b71c1c", shape: "rounded" } },
      }),
      201,
    );
    expect(created.qrStyle).toMatchObject({ fg: "#b71c1c", bg: "#ffffff", shape: "rounded", logo: false });
    const own = await owner.call(`/api/links/${created.id}/qr`);
    const svg = await own.text();
    expect(svg).toContain('fill="#b71c1c"');
    const { data, side } = await rasterise(svg);
    expect(jsQR(data, side, side)?.data).toBe("https://lp.example/go/styler/flyer?qr=1");
    // A query parameter replaces one field of the link's style.
    expect(await (await owner.call(`/api/links/${created.id}/qr?bg=%23fff8e1`)).text()).toContain('fill="#b71c1c"');

    const form = new FormData();
    for (const [key, value] of Object.entries(body)) form.append(key, value);
    form.append("qrStyle", JSON.stringify({ fg: "#1a237e", finder: "dot" }));
    const updated = await json<LinkJson>(await owner.call("/api/links/by-slug/flyer", { method: "PUT", body: form }));
    expect(updated.qrStyle).toMatchObject({ fg: "#1a237e", finder: "dot" });
    // Left out: unchanged.
    const kept = await json<LinkJson>(await owner.call("/api/links/by-slug/flyer", { method: "PUT", json: body }));
    expect(kept.qrStyle).toMatchObject({ fg: "#1a237e" });
    const cleared = await json<LinkJson>(
      await owner.call("/api/links/by-slug/flyer", { method: "PUT", json: { ...body, qrStyle: null } }),
    );
    expect(cleared.qrStyle).toBeNull();
    expect(await (await owner.call(`/api/links/${created.id}/qr`)).text()).toContain('fill="#004d40"');
  });

  test("a link style that would not scan is refused, and the link is left as it was", async () => {
    const body = { title: "Menu", description: "Our menu", targetUrl: "https://example.com/menu" };
    expect(
      await refusal(
        await owner.call("/api/links/by-slug/menu", { method: "PUT", json: { ...body, qrStyle: { fg: "#aaaaaa" } } }),
      ),
    ).toContain("qrStyle: fg #aaaaaa on bg #ffffff has too little contrast to scan");
    expect(
      await refusal(
        await owner.call("/api/links/by-slug/menu", { method: "PUT", json: { ...body, qrStyle: { logo: true } } }),
      ),
    ).toContain("no logo uploaded yet");
    const link = await json<LinkJson>(await owner.call("/api/links/by-slug/menu"));
    expect(link.qrStyle).toBeNull();
  });
});

describe("the CLI, through the SDK", () => {
  const home = mkdtempSync(join(tmpdir(), "linkprev-qr-cli-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  let options: CliOptions;
  beforeAll(async () => {
    const { token } = await seedApiToken(server.sql, owner.userId, "cli");
    options = cliAtHome(server, token, home);
  });
  const run = (...args: string[]) => runCli(args, options);

  test("qr-style logo, set and get; links qr --logo draws it, --no-logo leaves it out; refusals in the server's words", async () => {
    await owner.call("/api/links/by-slug/menu", {
      method: "PUT",
      json: { title: "Menu", description: "Our menu", targetUrl: "https://example.com/menu", qrStyle: null },
    });
    writeFileSync(join(home, "brand.png"), makePng(200, 100, { pattern: "quarters" }));
    const uploaded = await run("qr-style", "logo", "brand.png");
    expect(uploaded.stdout).toContain("Logo: 200×100 px");
    const set = await run(
      "qr-style",
      "set",
      "--reset",
      "--fg",
      "#1a237e",
      "--shape",
      "dots",
      "--logo",
      "--logo-size",
      "0.3",
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/shape\s+dots/);
    const got = JSON.parse((await run("qr-style", "get", "--json")).stdout) as QrDefault;
    expect(got.style).toMatchObject({ fg: "#1a237e", shape: "dots", logo: true, logoSize: 0.3 });

    const drawn = await run("links", "qr", "menu", "--svg");
    expect(drawn.stdout).toContain("<image ");
    expect(drawn.stdout).toContain('fill="#1a237e"');
    const { data, side } = await rasterise(drawn.stdout);
    expect(jsQR(data, side, side)?.data).toBe(CODE_TEXT);
    expect((await run("links", "qr", "menu", "--svg", "--no-logo")).stdout).not.toContain("<image ");
    const file = join(home, "menu.png");
    expect((await run("links", "qr", "menu", "--png", file, "--size", "600", "--logo", "--finder", "dot")).code).toBe(
      0,
    );
    const png = await decodePng(readFileSync(file).buffer as ArrayBuffer);
    expect(jsQR(png.data as Uint8ClampedArray, 600, 600)?.data).toBe(CODE_TEXT);

    const tooLarge = await run("links", "qr", "menu", "--svg", "--logo", "--logo-size", "0.45");
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stderr).toContain("too large for error correction H");
    const inverted = await run("qr-style", "set", "--fg", "#ffffff", "--bg", "#000000", "--no-logo");
    expect(inverted.code).toBe(1);
    expect(inverted.stderr).toContain("or ask for inverted");
    expect((await run("qr-style", "set", "--fg", "#ffffff", "--bg", "#000000", "--no-logo", "--inverted")).code).toBe(
      0,
    );
    expect((await run("qr-style", "remove-logo")).stdout).toContain("Logo removed");
    expect(JSON.parse((await run("qr-style", "get", "--json")).stdout).logo).toBeNull();
  });
});
