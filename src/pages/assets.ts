// Static assets: the stylesheet and island bundles built by scripts/build-assets.ts (content-hashed names,
// cached for a year) and the favicon. Served by the request thread itself, like /go (docs/decisions/0006).
import { assets, clientScript, stylesheet } from "../../build/assets.gen.ts";
import faviconPath from "./assets/favicon.svg" with { type: "file" };

const IMMUTABLE = "public, max-age=31536000, immutable";

export { clientScript, stylesheet };

/** Raw Bun routes for the built assets and the favicon. */
export async function assetRoutes() {
  const favicon = new Uint8Array(await Bun.file(faviconPath).arrayBuffer());
  const faviconHeaders = { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" };
  return {
    "/assets/:name": {
      GET: (request: Request & { params: { name: string } }) => {
        const asset = assets[`/assets/${request.params.name}`];
        if (!asset) return new Response("Not found", { status: 404 });
        return new Response(asset.body, {
          headers: { "Content-Type": asset.type, "Cache-Control": IMMUTABLE, "X-Content-Type-Options": "nosniff" },
        });
      },
    },
    "/favicon.ico": { GET: () => new Response(favicon, { headers: faviconHeaders }) },
  };
}
