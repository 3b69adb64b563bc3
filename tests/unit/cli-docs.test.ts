// docs/cli.md's examples are commands a person can paste: each line of a code block is one `linkprev` command
// (or a comment), its comment closed, and each names a command the CLI has.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const text = readFileSync(join(import.meta.dir, "../../docs/cli.md"), "utf8");
const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
const help = Bun.spawnSync([
  process.execPath,
  join(import.meta.dir, "../../cli/linkprev.ts"),
  "completion",
  "bash",
]).stdout.toString();

test("every line of docs/cli.md's code blocks is one whole command, with its backticks paired", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  const broken: string[] = [];
  for (const line of blocks.flatMap((block) => block.split("\n"))) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const command = /^(?:url=\$\()?linkprev (\S+)/.exec(line)?.[1];
    if (command === undefined || !(command.startsWith("-") || new RegExp(`\\b${command}\\b`).test(help)))
      broken.push(`not a linkprev command: ${line}`);
    if ((line.match(/`/g) ?? []).length % 2 !== 0) broken.push(`unpaired backtick: ${line}`);
  }
  expect(broken).toEqual([]);
});
