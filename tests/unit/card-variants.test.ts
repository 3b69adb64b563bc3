// The pure parts of card variants (docs/decisions/0009): which variant each crawler gets through the memoised classifier
// /go uses, and where a focal point puts each crop.
import { describe, expect, test } from "bun:test";
import { createVisitorClassifier } from "../../src/redirect/classify.ts";
import { focalCrop, RENDITIONS, VARIANT_RENDITION, variantForPlatform } from "../../src/previews/variants.ts";
import { PLATFORMS } from "../../src/previews/platforms.ts";
import { crawlerAgents } from "../helpers/server.ts";

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
