// Installs dependencies (Bun included, from the npm registry) when they are missing or the lockfile changed.
// Runs before `npm start` and `npm test`; when nothing changed it only compares one hash.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execSync } from "node:child_process";

const stamp = "node_modules/.linkprev-deps";
const lock = readFileSync("package-lock.json");
const wanted = createHash("sha256").update(lock).digest("hex");
const have = existsSync(stamp) ? readFileSync(stamp, "utf8") : "";

if (have !== wanted || !existsSync("node_modules/.bin/bun")) {
  console.error("Installing dependencies (npm ci)...");
  execSync("npm ci --no-audit --no-fund", { stdio: "inherit" });
  writeFileSync(stamp, wanted);
}
