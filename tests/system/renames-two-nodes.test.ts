// Two LinkPrev nodes on one PostgreSQL: a link renamed on A keeps answering at its old address on B within a second
// (B had cached that address as the live link, and the new one as unknown), B's copy at the old address follows a
// later edit made on A, a drop on A answers 410 on B; and a node started afterwards knows every old address from its
// address filter at start. Skipped, saying so, only without PostgreSQL. docs/decisions/0047.
import { describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { postgresInstalled, usePgNodes } from "../helpers/cluster.ts";
import { apiCall, seedPgUserWithToken, type Node } from "../helpers/nodes.ts";
import { crawlerAgents } from "../helpers/server.ts";

const available = postgresInstalled("the two-node rename test");

const PERSON = crawlerAgents.people["firefox-linux"]!;

const go = (node: Node, path: string) =>
  fetch(`${node.url}/go/${path}`, { redirect: "manual", headers: { "user-agent": PERSON } });
const within = (what: string, check: () => Promise<void>) => eventually(check, { timeoutMs: 1000, what });

describe.skipIf(!available)("renamed links on two nodes", () => {
  const pg = usePgNodes([1, 2]);

  test("a rename on A is served at both addresses by B, follows A's later edit, and a drop on A is 410 on B and on a node started later", async () => {
    const { db, nodes } = pg();
    const [a, b] = nodes;
    const { token } = await seedPgUserWithToken(db, "ana");
    const json = { targetUrl: "https://ana.test/one", title: "Launch", description: "Day one" };
    const created = await apiCall(a.url, token, "/api/links", {
      method: "POST",
      json: { ...json, customLinkSlug: "launch" },
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { id: number };
    await within("the new link on B", async () => expect((await go(b, "ana/launch")).status).toBe(302));
    expect((await go(b, "ana/launch-day")).status).toBe(404);

    expect(
      (
        await apiCall(a.url, token, "/api/links/by-slug/launch", {
          method: "PUT",
          json: { ...json, customLinkSlug: "launch-day" },
        })
      ).status,
    ).toBe(200);
    await within("the new address on B", async () => expect((await go(b, "ana/launch-day")).status).toBe(302));
    expect((await go(b, "ana/launch")).headers.get("location")).toBe("https://ana.test/one");

    // B now holds the link at its old address too: A's edit of the link must reach that copy.
    const edited = await apiCall(a.url, token, "/api/links/by-slug/launch-day", {
      method: "PUT",
      json: { ...json, targetUrl: "https://ana.test/two" },
    });
    expect(edited.status).toBe(200);
    await within("the edit at the old address on B", async () =>
      expect((await go(b, "ana/launch")).headers.get("location")).toBe("https://ana.test/two"),
    );

    // A second link renamed: a node started from now on must know its old address from the filter it builds at start.
    const other = await apiCall(a.url, token, "/api/links", {
      method: "POST",
      json: { ...json, targetUrl: "https://ana.test/menu", customLinkSlug: "menu" },
    });
    expect(other.status).toBe(201);
    expect(
      (
        await apiCall(a.url, token, "/api/links/by-slug/menu", {
          method: "PUT",
          json: { ...json, targetUrl: "https://ana.test/menu", customLinkSlug: "menu-2027" },
        })
      ).status,
    ).toBe(200);

    const { oldAddresses } = (await edited.json()) as { oldAddresses: Array<{ id: number }> };
    expect(
      (await apiCall(a.url, token, `/api/links/${link.id}/old-addresses/${oldAddresses[0]!.id}`, { method: "DELETE" }))
        .status,
    ).toBe(204);
    await within("the drop on B", async () => expect((await go(b, "ana/launch")).status).toBe(410));

    const c = await pg().node({ DATABASE_URL: pg().databaseUrl, NODE_SLOT: "3" });
    expect((await go(c, "ana/launch")).status).toBe(410);
    expect((await go(c, "ana/menu")).headers.get("location")).toBe("https://ana.test/menu");
    expect((await go(c, "ana/launch-day")).headers.get("location")).toBe("https://ana.test/two");
  });
});
