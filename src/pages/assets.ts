// Static assets: the stylesheet and island bundles built by scripts/build-assets.ts (content-hashed names,
// cached for a year) and the favicon.
import { Elysia } from "elysia";
import { assets, clientScript, stylesheet } from "../../build/assets.gen.ts";
import faviconPath from "./assets/favicon.svg" with { type: "file" };

const IMMUTABLE = "public, max-age=31536000, immutable";

export { clientScript, stylesheet };

export async function assetRoutes() {
  const favicon = new Uint8Array(await Bun.file(faviconPath).arrayBuffer());
  return new Elysia()
    .get("/assets/:name", ({ params }) => {
      const asset = assets[`/assets/${params.name}`];
      if (!asset) return new Response("Not found", { status: 404 });
      return new Response(asset.body, { headers: { "Content-Type": asset.type, "Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff" } });
    })
    .get("/favicon.ico", () => new Response(favicon, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } }));
}
