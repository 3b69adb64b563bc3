// The safe fetcher with its one outside dependency, DNS, answered by the test: rebinding, re-checked hops, pinning.
// Pages come from a real HTTP server on loopback (allowed here by the fetcher's allow list, as FETCH_ALLOW_PRIVATE).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SafeFetcher, type Resolver } from "../../src/safe-fetch/fetcher.ts";
import { startFakeWeb, type FakeWeb } from "../fakes/web.ts";

let web: FakeWeb;
beforeAll(() => {
  web = startFakeWeb();
});
afterAll(() => web.stop());

/** A resolver that gives `answers` in turn (the last one again once they run out), counting its calls. */
function scriptedResolver(...answers: string[][]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length - 1, answers.length - 1)]!;
  };
  return Object.assign(resolve, { calls });
}

const fetcherWith = (resolve: Resolver) =>
  new SafeFetcher({
    allowPrivate: ["127.0.0.1/32"],
    deadlineMs: 3000,
    userAgent: "LinkPrevBot/1.0 (+http://links.test)",
    resolve,
  });

test("DNS rebinding: the name is resolved once per hop and the connection goes to the address that was checked", async () => {
  // First answer: an allowed address; any later one: the metadata service. Were the name resolved again at
  // connect time, the request would go to 169.254.169.254 (and "rebind.test" resolves nowhere for real).
  const resolve = scriptedResolver(["127.0.0.1"], ["169.254.169.254"]);
  const page = await fetcherWith(resolve).fetchPage(`http://rebind.test:${web.port}/news`);
  expect(page.html).toContain("Rock &amp; roll");
  expect(resolve.calls).toEqual(["rebind.test"]);
  // The server saw the name in Host, and our honest User-Agent.
  expect(web.requests.at(-1)).toEqual({
    path: "/news",
    host: `rebind.test:${web.port}`,
    userAgent: "LinkPrevBot/1.0 (+http://links.test)",
  });
});

test("every redirect hop is resolved and checked again: a second answer inside is refused", async () => {
  const resolve = scriptedResolver(["127.0.0.1"], ["169.254.169.254"]);
  const attempt = fetcherWith(resolve).fetchPage(`http://rebind.test:${web.port}/hop/0`);
  await expect(attempt).rejects.toMatchObject({
    status: 422,
    message:
      "Refused: rebind.test resolves to a link-local address (such as a cloud metadata service); only public addresses are fetched",
  });
  expect(resolve.calls).toEqual(["rebind.test", "rebind.test"]);
});

test("a name is refused when any one of its addresses is inside, and nothing is connected to", async () => {
  const before = web.requests.length;
  const resolve = scriptedResolver(["8.8.8.8", "10.0.0.7"]);
  await expect(fetcherWith(resolve).fetchPage("http://mixed.test/")).rejects.toMatchObject({
    status: 422,
    message: "Refused: mixed.test resolves to a private address; only public addresses are fetched",
  });
  await expect(
    fetcherWith(scriptedResolver(["2606:4700::1111", "fd00:ec2::254"])).fetchPage("https://mixed6.test/"),
  ).rejects.toMatchObject({
    message: "Refused: mixed6.test resolves to a unique-local address; only public addresses are fetched",
  });
  await expect(
    fetcherWith(scriptedResolver(["64:ff9b::7f00:1"])).fetchPage("https://nat64.test/"),
  ).rejects.toMatchObject({ message: expect.stringContaining("a NAT64 address") });
  expect(web.requests.length).toBe(before);
});

test("a name that does not resolve is a refusal saying so", async () => {
  const failing: Resolver = async () => {
    throw Object.assign(new Error("queryA ENOTFOUND"), { code: "ENOTFOUND" });
  };
  await expect(fetcherWith(failing).fetchPage("https://nowhere.test/")).rejects.toMatchObject({
    status: 422,
    message: "Could not find the address of nowhere.test",
  });
  await expect(fetcherWith(scriptedResolver([])).fetchPage("https://empty.test/")).rejects.toMatchObject({
    status: 422,
    message: "Could not find the address of empty.test",
  });
});

test("a resolver that never answers is cut off by the deadline", async () => {
  const hanging: Resolver = () => new Promise(() => {});
  const fetcher = new SafeFetcher({
    allowPrivate: [],
    deadlineMs: 300,
    userAgent: "LinkPrevBot/1.0",
    resolve: hanging,
  });
  const started = Date.now();
  await expect(fetcher.fetchPage("https://slow-dns.test/")).rejects.toMatchObject({
    status: 422,
    message: "The page took longer than 0.3 seconds to arrive",
  });
  expect(Date.now() - started).toBeLessThan(2000);
});

test("https: the connection goes to the checked address and the certificate must be the name's", async () => {
  // An HTTPS server on loopback with a certificate for pinned.test only, from the tests' own CA (tests/fixtures/tls,
  // made for these tests and valid until 2126; the key protects nothing else).
  const tls = (file: string) => Bun.file(new URL(`../fixtures/tls/${file}`, import.meta.url)).text();
  const [ca, cert, key] = await Promise.all([tls("ca.pem"), tls("pinned.test.pem"), tls("pinned.test-key.pem")]);
  const hosts: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert, key },
    fetch: (request) => {
      hosts.push(request.headers.get("host") ?? "");
      return new Response("<html><head><title>Pinned</title></head></html>", {
        headers: { "content-type": "text/html" },
      });
    },
  });
  try {
    const fetcher = (resolve: Resolver, withCa = true) =>
      new SafeFetcher({
        allowPrivate: ["127.0.0.1/32"],
        deadlineMs: 3000,
        userAgent: "LinkPrevBot/1.0",
        resolve,
        ...(withCa ? { ca } : {}),
      });
    // "pinned.test" resolves nowhere for real: the request reached the address the resolver gave, under the name.
    const page = await fetcher(scriptedResolver(["127.0.0.1"])).fetchPage(`https://pinned.test:${server.port}/`);
    expect(page.html).toContain("<title>Pinned</title>");
    expect(hosts).toEqual([`pinned.test:${server.port}`]);
    // Another name on the same address: its certificate is not that name's, so nothing is fetched.
    await expect(
      fetcher(scriptedResolver(["127.0.0.1"])).fetchPage(`https://other.test:${server.port}/`),
    ).rejects.toThrow("Could not connect to other.test");
    // Certificates are checked: without the tests' CA the same page is refused.
    await expect(
      fetcher(scriptedResolver(["127.0.0.1"]), false).fetchPage(`https://pinned.test:${server.port}/`),
    ).rejects.toThrow("Could not connect to pinned.test");
    expect(hosts).toHaveLength(1);
  } finally {
    server.stop(true);
  }
});
