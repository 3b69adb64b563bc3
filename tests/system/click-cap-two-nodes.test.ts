// Two LinkPrev nodes on one PostgreSQL: when a link's click cap runs out on A, B shows crawlers the expired card
// and sends people to the expired page within a second (the last click is announced through NOTIFY, like a link
// edit), without B having seen a single person. Skipped, saying so, only without PostgreSQL.
import { describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { postgresInstalled, usePgNodes } from "../helpers/cluster.ts";
import { apiCall, seedPgUserWithToken, type Node } from "../helpers/nodes.ts";
import { crawlerAgents } from "../helpers/server.ts";

const available = postgresInstalled("the two-node click cap test");

const PERSON = crawlerAgents.people["firefox-linux"]!;
const CRAWLER = crawlerAgents.crawlers.facebook![0]!;
const ogTitle = (html: string) => /<meta property="og:title" content="([^"]*)">/.exec(html)?.[1] ?? null;

describe.skipIf(!available)("a click cap on two nodes", () => {
  const pg = usePgNodes([1, 2]);

  test("the last allowed visit on A flips B's card and B's people to expired within a second", async () => {
    const { db, nodes } = pg();
    const [a, b] = nodes;
    const { token } = await seedPgUserWithToken(db, "cap");
    const created = await apiCall(a.url, token, "/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://cap.test/offer",
        title: "Offer",
        description: "First two only",
        customLinkSlug: "offer",
        maxClicks: 2,
      },
    });
    expect(created.status).toBe(201);
    const visit = (node: Node, userAgent: string) =>
      fetch(`${node.url}/go/cap/offer`, { redirect: "manual", headers: { "user-agent": userAgent } });
    // B hears of the new link within a second (the cluster's promise: tests/system/postgres-cluster.test.ts), then
    // holds it in its cache, with the owner's card.
    await eventually(async () => expect(ogTitle(await (await visit(b, CRAWLER)).text())).toBe("Offer"), {
      timeoutMs: 1000,
      what: "B to serve the new link's card",
    });

    expect((await visit(a, PERSON)).headers.get("location")).toBe("https://cap.test/offer");
    expect(ogTitle(await (await visit(b, CRAWLER)).text())).toBe("Offer");
    // The second and last allowed person, on A.
    expect((await visit(a, PERSON)).headers.get("location")).toBe("https://cap.test/offer");
    expect(ogTitle(await (await visit(a, CRAWLER)).text())).toBe("This link has expired");

    await eventually(
      async () => expect(ogTitle(await (await visit(b, CRAWLER)).text())).toBe("This link has expired"),
      { timeoutMs: 1000, what: "B's crawler card to say the link expired" },
    );
    expect((await visit(b, PERSON)).status).toBe(410);
    const [{ clicks }] =
      await db`SELECT clicks FROM link_rules WHERE link_id = ${((await created.json()) as { id: number }).id}`;
    expect(clicks).toBe(2);
  });
});
