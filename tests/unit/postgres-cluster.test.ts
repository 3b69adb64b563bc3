// The throwaway PostgreSQL cluster the PostgreSQL test pass runs on: starts, serves Bun.SQL over its Unix socket,
// copies a template database, delivers LISTEN/NOTIFY between two clients, and leaves nothing behind when stopped.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { eventually, isTrue } from "../helpers/eventually.ts";
import {
  createDatabase,
  dropDatabase,
  findPgBin,
  randomDatabaseName,
  startThrowawayCluster,
} from "../helpers/postgres-cluster.ts";

const pgBin = findPgBin();
if (pgBin === null)
  console.warn(
    "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): skipping the throwaway-cluster test; run `node scripts/ensure-postgres.mjs` as root to install it",
  );

test.skipIf(pgBin === null)(
  "a throwaway cluster serves queries, template copies and LISTEN/NOTIFY, then disappears",
  async () => {
    const cluster = await startThrowawayCluster();
    expect(cluster.socketDir).toMatch(/^\/tmp\/lp-pg-/);
    expect(`${cluster.socketDir}/.s.PGSQL.5432`.length).toBeLessThanOrEqual(107);
    const clients: Bun.SQL[] = [];
    try {
      const admin = new Bun.SQL({ url: cluster.url, max: 1 });
      clients.push(admin);
      expect(await admin`select 1 as one`).toEqual([{ one: 1 }]);

      // A database copied from a template carries the template's tables and rows.
      const template = randomDatabaseName();
      const templateUrl = await createDatabase(cluster.url, template);
      const seed = new Bun.SQL({ url: templateUrl, max: 1 });
      await seed`create table marks (name text primary key)`;
      await seed`insert into marks values ('from the template')`;
      await seed.close(); // CREATE DATABASE … TEMPLATE fails while anyone is connected to the template
      const copy = randomDatabaseName();
      const copyUrl = await createDatabase(cluster.url, copy, template);
      expect(copyUrl).toBe(`postgres://postgres@localhost/${copy}?host=${cluster.socketDir}`);

      // LISTEN on one client, NOTIFY from another: only committed notifications arrive.
      const listener = new Bun.SQL({ url: copyUrl, max: 1 });
      const sender = new Bun.SQL({ url: copyUrl, max: 1 });
      clients.push(listener, sender);
      expect(await listener`select name from marks`).toEqual([{ name: "from the template" }]);
      const received: string[] = [];
      const subscription = await listener.listen("linkprev_test", (payload) => {
        received.push(payload);
      });
      expect(subscription.channel).toBe("linkprev_test");
      await sender.notify("linkprev_test", "a/first");
      await sender
        .begin(async (tx) => {
          await tx.notify("linkprev_test", "rolled back");
          throw new Error("roll back");
        })
        .catch(() => {});
      await sender.begin((tx) => tx.notify("linkprev_test", "a/second"));
      // Delivered in commit order: once the second has come, a rolled-back one would have come before it.
      await eventually(() => isTrue(received.length >= 2, "two notifications received"), {
        what: "the second notification",
      });
      expect(received).toEqual(["a/first", "a/second"]);
      await subscription.unlisten();

      await listener.close();
      await sender.close();
      await dropDatabase(cluster.url, copy);
      await dropDatabase(cluster.url, template);
      expect(await admin`select count(*)::int as n from pg_database where datname like 'lp\_%'`).toEqual([{ n: 0 }]);
    } finally {
      for (const client of clients) await client.close().catch(() => {});
      await cluster.stop();
    }
    expect(existsSync(cluster.socketDir)).toBe(false);
  },
  30_000,
);
