// The audit log is bounded (docs/decisions/0068): the audit-prune job deletes rows older than 365 days, and only those.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/sqlite/connection.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { AUDIT_KEEP_DAYS, pruneAuditEvents } from "../../src/workspaces/audit-prune.ts";

const dir = mkdtempSync(join(tmpdir(), "linkprev-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("rows past 365 days go; younger ones stay", async () => {
  const { sqlite, db } = openDb(join(dir, "audit.db"));
  applyMigrations(sqlite);
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  sqlite.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
  const now = Date.UTC(2026, 11, 7);
  const day = 86_400_000;
  for (const [action, age] of [
    ["link.create", AUDIT_KEEP_DAYS + 1],
    ["link.update", AUDIT_KEEP_DAYS - 1],
    ["link.delete", 0],
  ] as const)
    sqlite.run(
      "INSERT INTO audit_events (workspace_id, user_id, action, target_kind, target_id, created_at) VALUES (1, 1, ?, 'link', '7', ?)",
      [action, now - age * day],
    );
  await pruneAuditEvents(db, now);
  const left = sqlite.query<{ action: string }, []>("SELECT action FROM audit_events ORDER BY id").all();
  expect(left.map((row) => row.action)).toEqual(["link.update", "link.delete"]);
  sqlite.close();
});
