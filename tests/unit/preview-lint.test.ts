// The preview lint rules (src/previews/lint.ts): each fires at its limit and stays quiet just below it; the
// platform facts they read (src/previews/platforms.ts) and the truncation helpers.
import { describe, expect, test } from "bun:test";
import { lintPreview, lintRule, RULES, type LintImage, type LintInput } from "../../src/previews/lint.ts";
import {
  isCut,
  MOCKUP_PLATFORMS,
  PLATFORM_IDS,
  PLATFORMS,
  refreshUrl,
  truncate,
  utf8Bytes,
} from "../../src/previews/platforms.ts";
import { classifyUserAgent, getsCard } from "../../src/go/classify.ts";
import { crawlerAgents } from "../helpers/crawler-agents.ts";

const GOOD_IMAGE: LintImage = { width: 1200, height: 630, bytes: 150_000 };
/** A card with no warning at all: every test changes one thing. */
const clean: LintInput = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  imageUrl: "/uploads/x.jpg",
  image: GOOD_IMAGE,
};
const rulesOf = (input: Partial<LintInput>) => lintPreview({ ...clean, ...input }).map((w) => w.rule);
const withImage = (image: Partial<LintImage>) => ({ image: { ...GOOD_IMAGE, ...image } });

test("a good card has no warnings", () => {
  expect(lintPreview(clean)).toEqual([]);
});

describe("text", () => {
  test("x-title-cut: over 50 characters, not at 50", () => {
    expect(rulesOf({ title: "a".repeat(50) })).not.toContain("x-title-cut");
    const [warning] = lintPreview({ ...clean, title: "a".repeat(51) });
    expect(warning).toMatchObject({ rule: "x-title-cut", severity: "warning", platforms: ["x"] });
    expect(warning!.message).toContain("51");
  });

  test("x-title-cut counts characters, not UTF-16 units: 50 emoji are 50", () => {
    expect(rulesOf({ title: "😀".repeat(50) })).not.toContain("x-title-cut");
  });

  test("discord-title-bytes: over 67 UTF-8 bytes, which a 34-character accented title already is", () => {
    expect(rulesOf({ title: "a".repeat(46) + "é".repeat(1) })).not.toContain("discord-title-bytes");
    expect(rulesOf({ title: "é".repeat(33) + "a" })).not.toContain("discord-title-bytes"); // 67 bytes
    expect(rulesOf({ title: "é".repeat(34) })).toContain("discord-title-bytes"); // 68 bytes, 34 characters
    expect(lintRule("discord-title-bytes", { ...clean, title: "é".repeat(34) })).toMatchObject({
      severity: "warning",
      platforms: ["discord"],
    });
  });

  test("discord-description-bytes: over 347 bytes, not at 347", () => {
    expect(rulesOf({ description: "€".repeat(115) + "ab" })).not.toContain("discord-description-bytes"); // 347
    expect(rulesOf({ description: "€".repeat(116) })).toContain("discord-description-bytes"); // 348
  });

  test("whatsapp-description-long: over 80 characters is info; 80 is fine", () => {
    expect(rulesOf({ description: "d".repeat(80) })).not.toContain("whatsapp-description-long");
    expect(lintRule("whatsapp-description-long", { ...clean, description: "d".repeat(81) })).toMatchObject({
      severity: "info",
      platforms: ["whatsapp"],
    });
  });

  test("title-equals-description: same words, case and spacing aside", () => {
    expect(rulesOf({ title: "Spring sale", description: "  spring   SALE " })).toContain("title-equals-description");
    expect(rulesOf({ title: "Spring sale", description: "Spring sale ends Sunday" })).not.toContain(
      "title-equals-description",
    );
    const warning = lintRule("title-equals-description", { ...clean, description: clean.title });
    expect(warning!.platforms).toContain("whatsapp");
    expect(warning!.platforms).not.toContain("x"); // X shows no description on large cards
  });
});

describe("image", () => {
  test("no-image: neither an image URL nor an upload", () => {
    expect(rulesOf({ imageUrl: null, image: null })).toContain("no-image");
    expect(rulesOf({ imageUrl: "https://cdn.example.com/a.jpg", image: null })).toEqual([]);
    expect(lintRule("no-image", { ...clean, imageUrl: null, image: null })!.platforms).toEqual([...MOCKUP_PLATFORMS]);
  });

  test("an external image of unknown size has no size rules", () => {
    expect(rulesOf({ imageUrl: "https://cdn.example.com/a.jpg", image: null })).toEqual([]);
  });

  test("image-too-small: below 600×315 for Facebook's large card; below 300 px wide WhatsApp and X join", () => {
    expect(rulesOf(withImage({ width: 600, height: 315 }))).not.toContain("image-too-small");
    expect(lintRule("image-too-small", { ...clean, ...withImage({ width: 599, height: 315 }) })!.platforms).toEqual([
      "facebook",
    ]);
    expect(lintRule("image-too-small", { ...clean, ...withImage({ width: 600, height: 314 }) })!.platforms).toEqual([
      "facebook",
    ]);
    expect(lintRule("image-too-small", { ...clean, ...withImage({ width: 300, height: 157 }) })!.platforms).toEqual([
      "facebook",
    ]);
    expect(lintRule("image-too-small", { ...clean, ...withImage({ width: 299, height: 157 }) })!.platforms).toEqual([
      "x",
      "facebook",
      "whatsapp",
    ]);
  });

  test("image-below-minimum: under Facebook's 200×200 or X's 144×144 is an error", () => {
    expect(rulesOf(withImage({ width: 400, height: 200 }))).not.toContain("image-below-minimum");
    expect(lintRule("image-below-minimum", { ...clean, ...withImage({ width: 400, height: 199 }) })).toMatchObject({
      severity: "error",
      platforms: ["facebook"],
    });
    expect(lintRule("image-below-minimum", { ...clean, ...withImage({ width: 143, height: 143 }) })!.platforms).toEqual(
      ["x", "facebook"],
    );
    expect(lintPreview({ ...clean, ...withImage({ width: 143, height: 143 }) })[0]!.severity).toBe("error"); // errors first
    expect(lintRule("image-below-minimum", { ...clean, ...withImage({ width: 100, height: 100 }) })!.message).toContain(
      "may not show it",
    );
    expect(
      lintRule("image-below-minimum", { ...clean, ...withImage({ width: 100, height: 100, servedBytes: 90_000 }) })!
        .message,
    ).toContain("very blurry");
  });

  test("image-upscaled: info between the large-card minimum and 1200×630, not alongside image-too-small", () => {
    expect(rulesOf(withImage({ width: 1200, height: 630 }))).not.toContain("image-upscaled");
    expect(rulesOf(withImage({ width: 1199, height: 630 }))).toContain("image-upscaled");
    expect(rulesOf(withImage({ width: 599, height: 315 }))).not.toContain("image-upscaled");
  });

  test("image-heavy-crop: a 4:3 or square source fires, 1.91:1 and 2:1 stay quiet", () => {
    expect(rulesOf(withImage({ width: 1200, height: 630 }))).not.toContain("image-heavy-crop");
    expect(rulesOf(withImage({ width: 1600, height: 800 }))).not.toContain("image-heavy-crop");
    expect(rulesOf(withImage({ width: 1430, height: 1000 }))).not.toContain("image-heavy-crop"); // keeps 75 %
    const fourThree = lintRule("image-heavy-crop", { ...clean, ...withImage({ width: 1600, height: 1200 }) });
    expect(fourThree!.message).toContain("top and bottom");
    expect(fourThree!.message).toContain("30%");
    expect(lintRule("image-heavy-crop", { ...clean, ...withImage({ width: 3000, height: 1000 }) })!.message).toContain(
      "left and right",
    );
  });

  test("whatsapp-image-heavy over 300 KB and whatsapp-image-too-heavy over 600 KB, judging the file crawlers get", () => {
    expect(rulesOf(withImage({ bytes: 300_000 }))).toEqual([]);
    expect(rulesOf(withImage({ bytes: 300_001 }))).toEqual(["whatsapp-image-heavy"]);
    expect(rulesOf(withImage({ bytes: 600_000 }))).toEqual(["whatsapp-image-heavy"]);
    expect(lintPreview({ ...clean, ...withImage({ bytes: 600_001 }) })).toMatchObject([
      { rule: "whatsapp-image-too-heavy", severity: "error", platforms: ["whatsapp"] },
    ]);
    // An upload's source may be heavy; LinkPrev serves its re-encoded copy.
    expect(rulesOf(withImage({ bytes: 4_000_000, servedBytes: 180_000 }))).toEqual([]);
    expect(rulesOf(withImage({ bytes: 100_000, servedBytes: 700_000 }))).toEqual(["whatsapp-image-too-heavy"]);
  });
});

test("every rule has a kebab-case id and a message that says what to do", () => {
  const everything = lintPreview({
    title: "é".repeat(51),
    description: "é".repeat(174) + "x",
    image: { width: 100, height: 100, bytes: 900_000 },
  });
  for (const warning of everything) {
    expect(RULES).toContain(warning.rule as (typeof RULES)[number]);
    expect(warning.rule).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(warning.message.length).toBeGreaterThan(30);
    expect(warning.platforms.length).toBeGreaterThan(0);
  }
  expect(new Set(everything.map((w) => w.rule)).size).toBe(everything.length);
});

describe("platform facts", () => {
  test("every platform the classifier names has facts; the mockup platforms draw cards", () => {
    const named = new Set<string>();
    for (const agents of Object.values(crawlerAgents.crawlers))
      for (const agent of agents) {
        const visitor = classifyUserAgent(agent);
        if (getsCard(visitor.kind)) named.add(visitor.platform!);
      }
    for (const platform of named) expect(PLATFORM_IDS).toContain(platform as never);
    for (const id of MOCKUP_PLATFORMS) expect(PLATFORMS[id].drawsCards).toBe(true);
  });

  test("truncate cuts by characters or by bytes, never inside a character", () => {
    expect(truncate("a".repeat(51), PLATFORMS.x.title)).toBe(`${"a".repeat(50)}…`);
    expect(truncate("short", PLATFORMS.x.title)).toBe("short");
    const cut = truncate("é".repeat(40), PLATFORMS.discord.title);
    expect(cut).toBe(`${"é".repeat(33)}…`);
    expect(utf8Bytes(cut.slice(0, -1))).toBeLessThanOrEqual(67);
    expect(isCut("anything", null)).toBe(false);
  });

  test("refresh tools: debuggers link to the short URL, new-version platforms have none", () => {
    expect(refreshUrl("facebook", "https://l.example/go/a/b")).toBe(
      "https://developers.facebook.com/tools/debug/?q=https%3A%2F%2Fl.example%2Fgo%2Fa%2Fb",
    );
    expect(refreshUrl("linkedin", "https://l.example/go/a/b")).toBe(
      "https://www.linkedin.com/post-inspector/inspect/https%3A%2F%2Fl.example%2Fgo%2Fa%2Fb",
    );
    expect(PLATFORMS.telegram.refresh).toMatchObject({ kind: "bot", url: "https://t.me/webpagebot" });
    for (const id of ["x", "slack", "discord", "whatsapp"] as const)
      expect(PLATFORMS[id].refresh.kind).toBe("new-version");
  });
});
