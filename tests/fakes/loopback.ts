// Every fake provider is a real HTTP server on a free loopback port.
export function serveOnLoopback(fetch: (request: Request) => Response | Promise<Response>): {
  url: string;
  stop: () => void;
} {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => void server.stop(true) };
}
