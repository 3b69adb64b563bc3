// The README's promise for a fresh checkout: with only Node and npm on the PATH, `npm install` leaves the committed
// lockfile as it is (it is complete for every platform) and the documented `npx linkprev` runs the CLI.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dir, "../..");
const checkout = mkdtempSync(join(tmpdir(), "linkprev-checkout-"));
const nodeDir = dirname(Bun.which("node")!);
// Node's folder and the system's, never node_modules/.bin: Bun must come from the checkout's own install.
const PATH = [nodeDir, "/usr/bin", "/bin"].join(":");
const env = { PATH, HOME: process.env.HOME ?? checkout, XDG_CONFIG_HOME: join(checkout, ".config") };
afterAll(() => rmSync(checkout, { recursive: true, force: true }));
let installWarnings = "";

async function run(command: string[]) {
  const child = Bun.spawn(command, { cwd: checkout, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  // The files a clone has: those git tracks, as they are in the working tree.
  const files = Bun.spawnSync(["git", "ls-files", "-z"], { cwd: root }).stdout.toString().split("\0").filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    cpSync(join(root, file), join(checkout, file));
  }
  expect(Bun.which("bun", { PATH })).toBeNull();
  const install = await run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline"]);
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  installWarnings = install.stderr;
}, 300_000);

test("npm install leaves package-lock.json unchanged", () => {
  expect(readFileSync(join(checkout, "package-lock.json"), "utf8")).toBe(
    readFileSync(join(root, "package-lock.json"), "utf8"),
  );
});

// The install above checked every package's engines as it placed it: a second install would only repeat that.
test("npm install does not warn EBADENGINE on this Node", () => {
  expect(installWarnings).not.toContain("EBADENGINE");
});

test("npx linkprev runs the CLI right after npm install, with no Bun on the PATH", async () => {
  const help = await run(["npx", "--no-install", "linkprev", "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain("Usage: linkprev");
  const list = await run(["npx", "--no-install", "linkprev", "links", "list"]);
  expect(list.code).toBe(2);
  expect(list.stderr).toContain("Not logged in. Run `linkprev login --server URL --token TOKEN`");
}, 60_000);
