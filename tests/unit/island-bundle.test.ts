// What the browser downloads may hold only shared modules from src/: the islands' own rule in
// .dependency-cruiser.cjs checks their direct imports; this checks everything the bundle reaches through them
// (a wire type or model that imported a service would pull the server into the page).
import { expect, test } from "bun:test";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "../..");
const rules = createRequire(import.meta.url)(join(root, ".dependency-cruiser.cjs")) as {
  forbidden: { name: string; to: { pathNot?: string[] } }[];
};
const shared = new RegExp(rules.forbidden.find((rule) => rule.name === "islands-import-only-shared")!.to.pathNot![0]!);
/** Rules for text and the error values the shared models use. */
const sharedPlumbing = /^src\/http\/(errors|text)\.ts$/;

test("the island bundle holds no server module from src/", async () => {
  const result = await Bun.build({
    entrypoints: [join(root, "islands/client.ts")],
    target: "browser",
    splitting: true,
    metafile: true,
    external: ["react", "react-dom", "preact", "zod"],
  });
  expect(result.success).toBe(true);
  const modules = Object.keys(result.metafile!.inputs).map((path) =>
    relative(root, join(root, path)).replaceAll("\\", "/"),
  );
  const fromSrc = modules.filter((path) => path.startsWith("src/"));
  expect(fromSrc).toContain("src/links/model.ts");
  expect(fromSrc.filter((path) => !shared.test(path) && !sharedPlumbing.test(path))).toEqual([]);
}, 30_000);
