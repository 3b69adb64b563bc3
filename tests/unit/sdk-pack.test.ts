// @linkprev/sdk packs (docs/decisions/0061): `npm pack` builds it (prepack: tsc) into a tarball of compiled
// JavaScript and its types only (nothing of src/, the server), which a project of its own can import and typecheck.
import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const PACKAGE = resolve(import.meta.dir, "../../packages/sdk");
const ROOT_MODULES = resolve(import.meta.dir, "../../node_modules");
const work = mkdtempSync(join(tmpdir(), "linkprev-sdk-pack-"));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(join(PACKAGE, "dist"), { recursive: true, force: true });
});

test("npm pack gives the compiled SDK and its types, nothing of the server; docs/sdk.md's example typechecks against it", async () => {
  execFileSync("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: PACKAGE,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, PATH: `${join(ROOT_MODULES, ".bin")}:${process.env.PATH}` },
  });
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  expect(tarball).toBe("linkprev-sdk-0.1.0.tgz");
  const files = execFileSync("tar", ["-tzf", join(work, tarball!)], { encoding: "utf8" })
    .trim()
    .split("\n")
    .sort();
  expect(files).toEqual([
    "package/dist/api.d.ts",
    "package/dist/api.js",
    "package/dist/index.d.ts",
    "package/dist/index.js",
    "package/package.json",
  ]);

  // A consumer: the tarball unpacked as node_modules/@linkprev/sdk, openapi-fetch beside it.
  const consumer = join(work, "consumer");
  const installed = join(consumer, "node_modules/@linkprev/sdk");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(work, tarball!), "-C", installed, "--strip-components=1"]);
  symlinkSync(join(ROOT_MODULES, "openapi-fetch"), join(consumer, "node_modules/openapi-fetch"));
  // docs/sdk.md's example, as a user copies it, and the error type.
  const example = /```ts\n([\s\S]*?)```/.exec(readFileSync(resolve(import.meta.dir, "../../docs/sdk.md"), "utf8"))?.[1];
  expect(example).toContain('from "@linkprev/sdk"');
  writeFileSync(
    join(consumer, "use.ts"),
    `${example}import { LinkPrevError } from "@linkprev/sdk";
export const refused = (error: unknown) => error instanceof LinkPrevError && error.status;
`,
  );
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        types: [],
        lib: ["ES2022", "DOM"],
      },
      files: ["use.ts"],
    }),
  );
  execFileSync(join(ROOT_MODULES, ".bin/tsc"), ["-p", consumer], { stdio: "pipe" });
  const sdk = await import(join(installed, "dist/index.js"));
  expect(Object.keys(sdk).sort()).toEqual(["LinkPrevError", "createClient", "nextPage", "ok"]);
  // A path the document does not have is a compile error.
  writeFileSync(
    join(consumer, "use.ts"),
    `import { createClient } from "@linkprev/sdk";
createClient({ baseUrl: "", token: "" }).GET("/api/nothing-here");
`,
  );
  expect(() => execFileSync(join(ROOT_MODULES, ".bin/tsc"), ["-p", consumer], { stdio: "pipe" })).toThrow();
});
