// What operators read: `linkprev admin reports list` and `admin audit` show anonymous text with its control
// characters escaped (no terminal escapes, no forged columns or rows), the text log does too, and
// `admin backup` writes a private copy and says plainly when its folder is missing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/observability/log.ts";
import { resolveReport } from "../../src/safety/reports.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { apiClient, startTestServer, testEngine, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let ana: ApiClient;
let folder: string;
let umaskBefore: number;
beforeAll(async () => {
  umaskBefore = process.umask(0o022);
  server = await startTestServer();
  ana = await apiClient(server, "pro", "ana");
  folder = mkdtempSync(join(tmpdir(), "linkprev-backups-"));
});
afterAll(async () => {
  await server.close();
  process.umask(umaskBefore);
  rmSync(folder, { recursive: true, force: true });
});

const HOSTILE =
  "fine\u001b[2J\u001b]0;owned\u0007\tresolved: nothing\n999\t2026-01-01T00:00:00.000Z\tana/forged\u202eabc";

describe("anonymous text reaches an operator escaped", () => {
  test("admin reports list and admin audit: one row per entry, the same columns, no control character", async () => {
    expect(
      (
        await ana.call("/api/links", {
          method: "POST",
          json: { title: "T", description: "D", targetUrl: "https://example.org/x", customLinkSlug: "hostile" },
        })
      ).status,
    ).toBe(201);
    const sent = await fetch(`${server.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: "ana/hostile", reason: "other", details: HOSTILE }),
    });
    expect(sent.status).toBe(201);
    const { id } = (await sent.json()) as { id: number };

    const lines = runAdmin(server, "reports", "list").trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split("\t")).toHaveLength(8);
    expect(lines[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(lines[0]).toContain(
      "fine\\x1b[2J\\x1b]0;owned\\x07\\tresolved: nothing\\n999\\t2026-01-01T00:00:00.000Z\\tana/forged\\u202eabc",
    );

    await resolveReport(server.ctx.safety, id, HOSTILE, "ops");
    const audit = runAdmin(server, "audit")
      .trimEnd()
      .split("\n")
      .filter((line) => line.includes("report.resolve"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.split("\t")).toHaveLength(5);
    expect(audit[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
  });

  test("the text log writes an error's message on its line, escaped, with the stack's frames below", () => {
    const lines: string[] = [];
    const log = createLogger(
      "text",
      () => {},
      (line) => lines.push(line),
    );
    log.error(
      "request failed",
      new Error(`Invalid URL "/x\n2026-11-29T00:00:00.000Z ERROR forged\u001b[31m"`),
      "id\u001b1",
    );
    const [first, ...frames] = lines[0]!.split("\n");
    expect(first).toContain('Error: Invalid URL "/x\\n2026-11-29T00:00:00.000Z ERROR forged\\x1b[31m"');
    expect(first).toContain("id=id\\x1b1");
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^\s+at /);
  });
});

describe.skipIf(testEngine === "postgres")("admin backup", () => {
  test("writes the copy 0600 whatever the umask; a missing folder is a clear error, not SQLite's", () => {
    const file = join(folder, "copy.db");
    expect(runAdmin(server, "backup", file)).toContain(`Backed up to ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.uploads`).mode & 0o777).toBe(0o700);
    const missing = join(folder, "no-such-folder", "copy.db");
    expect(() => runAdmin(server, "backup", missing)).toThrow(
      `The folder ${join(folder, "no-such-folder")} does not exist`,
    );
  });
});
