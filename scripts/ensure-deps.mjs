// Installs dependencies (Bun included, from the npm registry) when they are missing or the lockfile changed.
// Runs before `npm start` and `npm test`; when nothing changed it only compares one hash.
// `npm install` rather than `npm ci`: the registry mirror here lacks some other platforms' optional packages
// (Tailwind's oxide builds), which `npm ci` refuses; `npm install` keeps to the lockfile for what it installs.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execSync } from "node:child_process";
import { lockfileChangeBy, reportChange } from "./lockfile-check.mjs";

const stamp = "node_modules/.linkprev-deps";
const lockHash = () =>
  createHash("sha256").update(readFileSync("package-lock.json")).update(readFileSync("package.json")).digest("hex");
const have = existsSync(stamp) ? readFileSync(stamp, "utf8") : "";

if (have !== lockHash() || !existsSync("node_modules/.bin/bun")) {
  console.error("Installing dependencies (npm install)...");
  const install = () => execSync("npm install --no-audit --no-fund", { stdio: "inherit" });
  // In CI an install that rewrites the lockfile fails the run: the committed one must be complete.
  if (process.env.CI === "true") reportChange(lockfileChangeBy(install));
  else install();
  writeFileSync(stamp, lockHash());
}
