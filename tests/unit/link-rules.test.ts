// The pure parts of link rules: UTM tags merged into a target URL, the device a User-Agent names, and how an edit
// changes the stored rules (src/utm/model.ts, src/go/device.ts, src/rules/save.ts).
import { describe, expect, test } from "bun:test";
import agents from "../fixtures/crawler-agents.json" with { type: "json" };
import { deviceOf } from "../../src/go/device.ts";
import { rulesAfter } from "../../src/rules/save.ts";
import { mergeUtm, UTM_PRESETS, utmOf } from "../../src/utm/model.ts";

describe("UTM tags", () => {
  test("existing parameters and the fragment are kept, a tag given replaces its old value, values are encoded", () => {
    expect(
      mergeUtm("https://example.com/p?ref=home&utm_source=old#top", {
        utm_source: "news letter",
        utm_campaign: "spring & sale",
      }),
    ).toBe("https://example.com/p?ref=home&utm_source=news+letter&utm_campaign=spring+%26+sale#top");
  });
  test("an empty tag removes it; a tag not given is left alone", () => {
    expect(mergeUtm("https://example.com/?utm_source=x&utm_medium=social", { utm_source: "" })).toBe(
      "https://example.com/?utm_medium=social",
    );
  });
  test("presets fill source and medium; utmOf reads the tags back", () => {
    const linkedin = UTM_PRESETS.find((preset) => preset.id === "linkedin")!;
    const url = mergeUtm("https://example.com/", { ...linkedin.tags, utm_campaign: "launch" });
    expect(utmOf(url)).toEqual({ utm_source: "linkedin", utm_medium: "social", utm_campaign: "launch" });
  });
});

describe("devices", () => {
  test("the shared fixture's people: iPhones are ios (in-app browsers too), Android is android, the rest desktop", () => {
    const people = agents.people as Record<string, string>;
    expect(deviceOf(people["safari-iphone"]!)).toBe("ios");
    expect(deviceOf(people["facebook-app-iphone"]!)).toBe("ios");
    expect(deviceOf(people["x-app-iphone"]!)).toBe("ios");
    expect(deviceOf(people["chrome-android"]!)).toBe("android");
    for (const name of ["chrome-windows", "firefox-linux", "safari-mac", "edge-windows"])
      expect(deviceOf(people[name]!)).toBe("desktop");
    expect(deviceOf("")).toBe("desktop");
  });
});

describe("an edit of the rules", () => {
  const current = {
    expiresAt: 1,
    maxClicks: 5,
    passwordHash: "h",
    rules: [{ when: { device: "ios" as const }, targetUrl: "https://a.example/" }],
  };
  test("absent keeps, null removes, a value replaces; an empty rule list removes the rules", () => {
    expect(rulesAfter(current, { maxClicks: null, expiredUrl: "https://b.example/" }, undefined)).toEqual({
      expiresAt: 1,
      passwordHash: "h",
      expiredUrl: "https://b.example/",
      rules: current.rules,
    });
    expect(rulesAfter(current, { password: "new", rules: [] }, "h2")).toEqual({
      expiresAt: 1,
      maxClicks: 5,
      passwordHash: "h2",
    });
    expect(rulesAfter(current, { password: null }, undefined)).toEqual({
      expiresAt: 1,
      maxClicks: 5,
      rules: current.rules,
    });
  });
});
