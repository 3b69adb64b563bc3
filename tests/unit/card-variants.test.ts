// The pure parts of card variants (docs/decisions/0009): which variant each crawler gets through the memoised classifier
// /go uses, and where a focal point puts each crop.
import { describe, expect, test } from "bun:test";
import { createVisitorClassifier } from "../../src/go/classify.ts";
import {
  focalCrop,
  RENDITIONS,
  VARIANT_RENDITION,
  variantForPlatform,
  type CardVariant,
} from "../../src/previews/variants.ts";
import { PLATFORMS } from "../../src/previews/platforms.ts";
import { pageVariant, renderPreviewPage } from "../../src/go/preview-page.ts";
import type { GoLink } from "../../src/link-cache/held-link.ts";
import { crawlerAgents } from "../helpers/crawler-agents.ts";

describe("platform → variant", () => {
  test("every crawler in the shared list gets its variant from the memoised classifier, the same object each time", () => {
    const classify = createVisitorClassifier();
    const expected: Record<string, string> = { x: "x", whatsapp: "whatsapp", telegram: "square" };
    for (const [platform, agents] of Object.entries(crawlerAgents.crawlers)) {
      for (const agent of agents) {
        const visitor = classify(agent);
        expect({ agent, variant: visitor.variant as string }).toEqual({ agent, variant: expected[platform] ?? "wide" });
        expect(classify(agent)).toBe(visitor);
      }
    }
    expect(classify(crawlerAgents.people["safari-iphone"]!)).toMatchObject({ isBot: false, variant: "wide" });
    expect(variantForPlatform(null)).toBe("wide");
    expect(variantForPlatform("not-a-platform")).toBe("wide");
  });

  test("each variant's rendition has the shape its platforms' facts ask for", () => {
    expect(RENDITIONS[VARIANT_RENDITION.x]).toEqual(PLATFORMS.x.bestImage!);
    expect(RENDITIONS[VARIANT_RENDITION.wide]).toEqual(PLATFORMS.facebook.bestImage!);
    expect(RENDITIONS[VARIANT_RENDITION.whatsapp].width / RENDITIONS[VARIANT_RENDITION.whatsapp].height).toBe(1);
    expect(RENDITIONS[VARIANT_RENDITION.square]).toEqual(RENDITIONS[VARIANT_RENDITION.whatsapp]);
  });
});

describe("focal crop", () => {
  test("the focal point at the centre of the crop where the image allows, clamped at its edges", () => {
    // 3000×1000 to a square: a 1000×1000 box sliding along x only.
    expect(focalCrop(3000, 1000, 1, 0.5, 0.5)).toEqual({ left: 1000, top: 0, width: 1000, height: 1000 });
    expect(focalCrop(3000, 1000, 1, 0.3, 0.9)).toEqual({ left: 400, top: 0, width: 1000, height: 1000 });
    expect(focalCrop(3000, 1000, 1, 0, 0)).toEqual({ left: 0, top: 0, width: 1000, height: 1000 });
    expect(focalCrop(3000, 1000, 1, 1, 1)).toEqual({ left: 2000, top: 0, width: 1000, height: 1000 });
    // A portrait to 2:1: the box slides along y only.
    expect(focalCrop(1000, 2000, 2, 0.9, 0.25)).toEqual({ left: 0, top: 250, width: 1000, height: 500 });
    // Already the shape: the whole image whatever the point.
    expect(focalCrop(1200, 600, 2, 0.1, 0.9)).toEqual({ left: 0, top: 0, width: 1200, height: 600 });
  });
});

describe("one page per distinct card", () => {
  const VARIANTS: CardVariant[] = ["wide", "square", "x", "whatsapp"];
  const link = (own: Partial<GoLink>): GoLink => ({
    id: 1,
    userId: 1,
    userSlug: "ann",
    linkSlug: "summer",
    targetUrl: "https://example.com/",
    title: "Summer",
    description: "Sale",
    imageUrl: null,
    imageWidth: null,
    imageHeight: null,
    version: 1,
    imageSquareUrl: null,
    imageXUrl: null,
    xTitle: null,
    whatsappDescription: null,
    domainId: null,
    goRules: null,
    clicks: null,
    status: "active",
    previewBodies: null,
    ...own,
  });

  test("every link, whatever it overrides, shows each platform the page of its own variant", () => {
    const options = [
      { imageUrl: [null, "/uploads/a.webp"] },
      { imageSquareUrl: [null, "/uploads/a-square.webp"] },
      { imageXUrl: [null, "/uploads/a-x.webp"] },
      { xTitle: [null, "For X"] },
      { whatsappDescription: [null, "For WhatsApp"] },
    ].map((option) => Object.entries(option)[0]!);
    for (let mask = 0; mask < 2 ** options.length; mask++) {
      const own = Object.fromEntries(options.map(([field, values], bit) => [field, values[(mask >> bit) & 1]]));
      const card = link(own);
      for (const variant of VARIANTS) {
        const shown = renderPreviewPage(card, "https://linkprev.example", { variant: pageVariant(card, variant) });
        expect({
          own,
          variant,
          same: shown === renderPreviewPage(card, "https://linkprev.example", { variant }),
        }).toEqual({ own, variant, same: true });
      }
    }
  });

  test("a link with no rendition or override of its own renders one page for every platform; one with all, four", () => {
    expect(VARIANTS.map((variant) => pageVariant(link({ imageUrl: "/uploads/a.webp" }), variant))).toEqual([
      "wide",
      "wide",
      "wide",
      "wide",
    ]);
    const full = link({
      imageUrl: "/a.webp",
      imageSquareUrl: "/a-square.webp",
      imageXUrl: "/a-x.webp",
      xTitle: "X",
      whatsappDescription: "W",
    });
    expect(VARIANTS.map((variant) => pageVariant(full, variant))).toEqual(VARIANTS);
  });
});
