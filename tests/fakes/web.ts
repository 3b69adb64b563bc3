// A small "web" on a free loopback port: real-world-shaped pages, redirect chains, a huge page, a slow-loris page,
// images and non-HTML answers, for the safe fetcher's tests. It records what each request looked like and how
// many bytes of the huge page it got out.
import { makePng } from "../helpers/images.ts";

export type FakeWeb = {
  url: string;
  port: number;
  /** Host and User-Agent of every request, in order. */
  requests: Array<{ path: string; host: string | null; userAgent: string | null }>;
  /** Whether the client hung up on /huge before the whole 10 MB was sent. */
  hugeAbandoned: () => boolean;
  stop: () => void;
};

/** A news-site-like head: og, twitter and a plain title, entities, a relative og:image. */
export const NEWS_PAGE = `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Plain title | The Daily Example</title>
  <meta name="description" content="The plain description">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:title" content="Twitter title">
  <meta name="twitter:description" content="Twitter description">
  <meta name="twitter:image" content="https://cdn.example.com/twitter.jpg">
  <meta property="og:site_name" content="The Daily &amp; Example">
  <meta property="og:title" content="Rock &amp; roll&#39;s   &quot;comeback&quot;
     year">
  <meta property="og:description" content="Why guitars are back &mdash; and what it means for the charts &#x2014; in 2026.">
  <meta property="og:image" content="/images/cover.png">
  <link rel="stylesheet" href="/app.css">
</head><body><h1>Ignored</h1><meta property="og:title" content="Body meta is never reached"></body></html>`;

export const TITLE_ONLY_PAGE = `<html><head><title>
    Just a   title &amp; nothing else
  </title></head><body><svg><title>not this</title></svg></body></html>`;

export const BASE_HREF_PAGE = `<html><head><base href="https://static.example.org/assets/"><title>Based</title>
  <meta property="og:image" content="img/card.png"></head></html>`;

export const LONG_PAGE = `<html><head><meta property="og:title" content="${"Word ".repeat(30)}"><meta property="og:description" content="${"Long sentence here. ".repeat(20)}"></head></html>`;

const html = (body: string) => new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });

export function startFakeWeb(): FakeWeb {
  const requests: FakeWeb["requests"] = [];
  let hugeAbandoned = false;
  const png = makePng(1600, 900);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request): Response {
      const url = new URL(request.url);
      requests.push({
        path: url.pathname,
        host: request.headers.get("host"),
        userAgent: request.headers.get("user-agent"),
      });
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const left = Number(hop[1]);
        return new Response(null, { status: 302, headers: { location: left > 0 ? `/hop/${left - 1}` : "/news" } });
      }
      switch (url.pathname) {
        // What a browser asks of a page it opens (the news page's stylesheet, the site's icon).
        case "/app.css":
          return new Response("body { font-family: serif; }", { headers: { "content-type": "text/css" } });
        case "/favicon.ico":
          return new Response(null, { status: 204 });
        case "/news":
          return html(NEWS_PAGE);
        case "/title-only":
          return html(TITLE_ONLY_PAGE);
        case "/base-href":
          return html(BASE_HREF_PAGE);
        case "/long":
          return html(LONG_PAGE);
        case "/moved":
          // Relative og:image on the final page resolves against the page it landed on.
          return new Response(null, { status: 301, headers: { location: "/articles/news" } });
        case "/articles/news":
          return html(NEWS_PAGE.replace("/images/cover.png", "cover.png"));
        case "/chain":
          return new Response(null, { status: 302, headers: { location: "/to-metadata" } });
        case "/to-metadata":
          return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
        case "/json":
          return Response.json({ title: "not a page" });
        case "/missing":
          return new Response("gone", { status: 404, headers: { "content-type": "text/html" } });
        case "/images/cover.png":
        case "/image":
          return new Response(png, { headers: { "content-type": "image/png" } });
        case "/image-lies":
          return new Response("<html>not an image</html>", { headers: { "content-type": "image/png" } });
        case "/image-huge":
          return new Response(new Uint8Array(6 * 1024 * 1024), { headers: { "content-type": "image/jpeg" } });
        case "/huge": {
          // 10 MB of page whose head never ends (a description after 600 KB): the fetcher must stop after 512 KB.
          const chunk = new TextEncoder().encode(`<!-- ${"x".repeat(65_000)} -->\n`);
          let sent = 0;
          let described = false;
          const head = new TextEncoder().encode("<html><head><title>Huge page</title>\n");
          return new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(head);
              },
              pull(controller) {
                if (sent >= 10 * 1024 * 1024) return controller.close();
                if (sent > 600 * 1024 && !described) {
                  described = true;
                  controller.enqueue(new TextEncoder().encode(`<meta name="description" content="Beyond 600 KB">`));
                }
                controller.enqueue(chunk);
                sent += chunk.byteLength;
              },
              cancel() {
                hugeAbandoned = true;
              },
            }),
            { headers: { "content-type": "text/html" } },
          );
        }
        case "/slow": {
          // Slow loris: headers at once, then a byte a second, forever (as ?type=…, text/html by default).
          let timer: ReturnType<typeof setInterval>;
          return new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode("<html><head>"));
                timer = setInterval(() => {
                  try {
                    controller.enqueue(new TextEncoder().encode(" "));
                  } catch {
                    clearInterval(timer);
                  }
                }, 1000);
              },
              cancel() {
                clearInterval(timer);
              },
            }),
            { headers: { "content-type": url.searchParams.get("type") ?? "text/html" } },
          );
        }
      }
      return new Response("not found", { status: 404 });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    requests,
    hugeAbandoned: () => hugeAbandoned,
    stop: () => void server.stop(true),
  };
}
