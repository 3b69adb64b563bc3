// The fast loop (npm run test:fast, docs/development.md) runs tests/unit without a server: no unit file, and not the
// preload every file gets (bunfig.toml), may reach src/server.ts through its relative imports.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const SERVER = join(ROOT, "src/server.ts");
const IMPORT = /(?:^|\s)(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"|import\(\s*"(\.{1,2}\/[^"]+)"\s*\)/gms;

function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(IMPORT)]
    .map((match) => resolve(dirname(file), match[1] ?? match[2]!))
    .filter((path) => /\.(tsx?|mjs)$/.test(path) && existsSync(path));
}

/** The chain of imports from `start` to src/server.ts, or null when there is none. */
function chainToServer(start: string): string[] | null {
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (file === SERVER) {
      const chain: string[] = [];
      for (let step: string | null = file; step !== null; step = cameFrom.get(step) ?? null) chain.unshift(step);
      return chain.map((path) => relative(ROOT, path));
    }
    for (const next of importsOf(file)) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return null;
}

test("no unit test file and not the test preload imports the server", () => {
  const starts = [
    join(ROOT, "tests/helpers/engine-preload.ts"),
    ...readdirSync(join(ROOT, "tests/unit"))
      .filter((name) => name.endsWith(".ts"))
      .map((name) => join(ROOT, "tests/unit", name)),
  ];
  const chains = starts.map(chainToServer).filter((chain) => chain !== null);
  expect(chains.map((chain) => chain.join(" → "))).toEqual([]);
});

test("the check sees an import chain that reaches the server", () => {
  expect(chainToServer(join(ROOT, "tests/helpers/server.ts"))).toEqual(["tests/helpers/server.ts", "src/server.ts"]);
});
