// `linkprev admin backup FILE` while the server serves and counts, then the restore docs/self-hosting.md gives
// (stop, copy the file and the uploads folder into a data directory, start): every link acknowledged before the
// backup is served with its image, and the restored database passes PRAGMA integrity_check.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePng } from "../helpers/images.ts";
import { apiCall, linkForm, startNode, stopNode } from "../helpers/nodes.ts";
import { acceptTerms } from "../helpers/server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const PERSON = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("a backup taken while serving restores to a server with every link and its image", async () => {
  const work = mkdtempSync(join(tmpdir(), "linkprev-backup-"));
  dirs.push(work);
  const dataDir = join(work, "data");
  mkdirSync(dataDir);
  const node = await startNode({}, dataDir);
  const token = Bun.spawnSync([
    process.execPath,
    cli,
    "admin",
    "token",
    "create",
    "--email",
    "ops@example.com",
    "--data",
    dataDir,
  ])
    .stdout.toString()
    .trim();
  await acceptTerms(node.url, token);
  const png = makePng(120, 80);
  const created = await apiCall(node.url, token, "/api/links", {
    method: "POST",
    form: linkForm(
      { targetUrl: "https://example.com/kept", title: "Kept", description: "d", customLinkSlug: "kept" },
      { bytes: png, name: "x.png", type: "image/png" },
    ),
  });
  expect(created.status).toBe(201);
  const link = (await created.json()) as { imageUrl: string; shortUrl: string };
  const goPath = new URL(link.shortUrl).pathname;

  // Views keep coming while the backup runs.
  let serving = true;
  const load = (async () => {
    while (serving)
      await fetch(`${node.url}${goPath}`, { redirect: "manual", headers: PERSON }).then((r) => r.arrayBuffer());
  })();
  const file = join(work, "linkprev-backup.db");
  const backup = Bun.spawnSync([process.execPath, cli, "admin", "backup", file, "--data", dataDir]);
  serving = false;
  await load;
  expect(backup.exitCode).toBe(0);
  expect(existsSync(`${file}.uploads`)).toBe(true);
  await stopNode(node, { keepData: true });

  // The restore, as docs/self-hosting.md gives it.
  const restored = join(work, "restored");
  mkdirSync(restored);
  copyFileSync(file, join(restored, "linkprev.db"));
  cpSync(`${file}.uploads`, join(restored, "uploads"), { recursive: true });
  const check = new Database(join(restored, "linkprev.db"), { readonly: true });
  expect(check.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  check.close();

  const again = await startNode({}, restored);
  try {
    const go = await fetch(`${again.url}${goPath}`, { redirect: "manual", headers: PERSON });
    expect(go.status).toBe(302);
    expect(go.headers.get("location")).toBe("https://example.com/kept");
    const image = await fetch(new URL(new URL(link.imageUrl, "http://x").pathname, again.url));
    expect(image.status).toBe(200);
  } finally {
    await stopNode(again);
  }
}, 60_000);
