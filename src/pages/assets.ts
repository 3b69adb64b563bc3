// Static assets served under content-hashed names, cached for a year.
import { Elysia } from "elysia";
import stylesPath from "./assets/styles.css" with { type: "file" };
import faviconPath from "./assets/favicon.svg" with { type: "file" };

type Asset = { body: Uint8Array; type: string };

const IMMUTABLE = "public, max-age=31536000, immutable";

function hashed(name: string, body: Uint8Array): string {
  const hash = new Bun.CryptoHasher("sha256").update(body).digest("hex").slice(0, 10);
  return name.replace(/(\.[a-z]+)$/, `.${hash}$1`);
}

export async function loadAssets() {
  const styles = new Uint8Array(await Bun.file(stylesPath).arrayBuffer());
  const favicon = new Uint8Array(await Bun.file(faviconPath).arrayBuffer());
  const stylesheet = `/assets/${hashed("styles.css", styles)}`;
  const table = new Map<string, Asset>([[stylesheet, { body: styles, type: "text/css; charset=utf-8" }]]);
  const routes = new Elysia()
    .get("/assets/:name", ({ params, set }) => {
      const asset = table.get(`/assets/${params.name}`);
      if (!asset) return new Response("Not found", { status: 404 });
      set.headers["cache-control"] = IMMUTABLE;
      return new Response(asset.body, { headers: { "Content-Type": asset.type, "Cache-Control": IMMUTABLE } });
    })
    .get("/favicon.ico", () => new Response(favicon, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } }));
  return { stylesheet, routes };
}
