// npm run lint:imports (part of npm test): the import rules of .dependency-cruiser.cjs over src/, islands/, cli/ and the SDK (packages/sdk/src).
// Fails on any violation, naming the import, and on any file whose relative imports the parser did not see
// (proof that the TypeScript 5 parser reads every file: see scripts/depcruise-typescript5.mjs).
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const ROOTS = ["src", "islands", "cli", "packages/sdk/src"];
const cruiser = "node_modules/dependency-cruiser/bin/dependency-cruise.mjs";
const args = [
  "--import",
  "./scripts/depcruise-typescript5.mjs",
  cruiser,
  "--config",
  ".dependency-cruiser.cjs",
  "--output-type",
  "json",
  ...ROOTS,
];
const result = JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));

const files = ROOTS.flatMap(function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
});
const modules = new Map(result.modules.map((module) => [module.source, module]));
const problems = [];
for (const file of files) {
  const module = modules.get(file);
  if (!module) {
    problems.push(`${file}: not read by the parser`);
    continue;
  }
  const written = [
    ...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms),
  ].filter(([, specifier]) => !specifier.includes("node_modules/")).length;
  const seen = module.dependencies.filter((dependency) => dependency.module.startsWith(".")).length;
  if (seen < written) problems.push(`${file}: ${written} relative imports written, ${seen} seen by the parser`);
}
for (const violation of result.summary.violations) {
  const path = violation.cycle
    ? [violation.from, ...violation.cycle.map((step) => step.name ?? step)].join(" → ")
    : `${violation.from} → ${violation.to}`;
  const comment = result.summary.ruleSetUsed.forbidden.find((rule) => rule.name === violation.rule.name)?.comment ?? "";
  problems.push(`${violation.rule.name}: ${path}${comment ? `\n    ${comment}` : ""}`);
}

console.log(
  `lint:imports: ${files.length} files, ${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports read`,
);
if (problems.length > 0) {
  console.error(`${problems.length} import rule violation(s):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log("lint:imports: no rule broken");
