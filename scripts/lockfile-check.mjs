// Fails when `npm install` changes package-lock.json: the committed lockfile must already name every platform's
// optional packages (Tailwind's oxide, Bun, esbuild), or `npm ci` elsewhere misses a native binary.
// `node scripts/lockfile-check.mjs` asks npm to resolve without installing; scripts/ensure-deps.mjs does the same
// check around its real install when CI=true. How to regenerate the lockfile: docs/development.md.
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const LOCKFILE = "package-lock.json";

/** Runs `install` (which may rewrite the lockfile) and returns the lockfile's changed line count, restoring it. */
export function lockfileChangeBy(install) {
  const before = readFileSync(LOCKFILE, "utf8");
  install();
  const after = readFileSync(LOCKFILE, "utf8");
  if (after === before) return 0;
  writeFileSync(`${LOCKFILE}.after-install`, after);
  writeFileSync(LOCKFILE, before);
  const old = new Set(before.split("\n"));
  const fresh = new Set(after.split("\n"));
  return [...fresh].filter((line) => !old.has(line)).length + [...old].filter((line) => !fresh.has(line)).length;
}

export function reportChange(changed) {
  if (changed === 0) return;
  console.error(
    `package-lock.json is incomplete: npm install changed ${changed} line(s) of it (its version is in package-lock.json.after-install).\n` +
      "Regenerate it from scratch as docs/development.md says (Lockfile), and commit the result.",
  );
  process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  reportChange(
    lockfileChangeBy(() =>
      execSync("npm install --package-lock-only --ignore-scripts --no-audit --no-fund", { stdio: "inherit" }),
    ),
  );
  console.log("package-lock.json: npm install leaves it unchanged");
}
