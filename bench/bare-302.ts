// The ceiling: a bare Bun.serve that answers every request with a fixed 302.
const server = Bun.serve({
  port: Number(process.argv[2] ?? 0),
  hostname: "127.0.0.1",
  fetch: () =>
    new Response(null, { status: 302, headers: { Location: "https://example.com/", "Cache-Control": "no-store" } }),
});
console.log(`ready ${server.port}`);
