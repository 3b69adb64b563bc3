// The docs a newcomer walks: every relative link in README.md and docs/ leads to a file that exists and, with an
// #anchor, to a heading in it (GitHub's anchor rule: lower case, punctuation dropped, spaces as hyphens).
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const root = join(import.meta.dir, "../..");
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
const docs = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

test("every relative link in README.md and docs/*.md resolves, anchors included", () => {
  const broken: string[] = [];
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split("#");
      const file = path ? resolve(root, dirname(doc), path) : join(root, doc);
      if (!existsSync(file)) {
        broken.push(`${doc}: ${target} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith(".md")) {
        const headings = [...readFileSync(file, "utf8").matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
          anchorOf(heading!),
        );
        if (!headings.includes(anchor)) broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
  }
  expect(broken).toEqual([]);
});
