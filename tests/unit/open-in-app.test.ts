// The app-URL device rule's pieces (docs/decisions/0060): which app URLs a rule may hold, the Android intent built
// from one, and which in-app browsers get the "Open in the app" page.
import { describe, expect, test } from "bun:test";
import { androidIntentUrl, isInAppBrowser, openInAppPage } from "../../src/go/open-in-app.ts";
import { appUrlProblem, RulesInput } from "../../src/rules/model.ts";

describe("appUrlProblem", () => {
  test("a custom scheme passes", () => {
    for (const url of ["acme://sale/summer?x=1&y=2", "fb123456://profile", "com.acme.app:/callback", "acme:open"])
      expect(appUrlProblem(url), url).toBeNull();
  });
  test("script, local, browser and web schemes are refused, whatever their case", () => {
    for (const scheme of [
      "javascript",
      "JavaScript",
      "data",
      "file",
      "vbscript",
      "blob",
      "about",
      "intent",
      "https",
      "http",
    ])
      expect(appUrlProblem(`${scheme}:x`), scheme).toBe(`${scheme.toLowerCase()}: is not an app scheme`);
  });
  test("no scheme, a hidden one, or characters that could leave an attribute or an intent", () => {
    for (const url of ["", "acme", "//acme", " javascript:x", "java\tscript:x", "\u0001javascript:x"])
      expect(appUrlProblem(url), url).toBe("must be an app URL like myapp://path");
    for (const url of ["acme://a b", 'acme://"', "acme://<x>", "acme://x#y", "acme://x\\y", "acme://x\u0000"])
      expect(appUrlProblem(url), url).toBe("must not hold spaces, quotes, angle brackets, backslashes or #");
  });
  test("the rules schema takes appUrl on ios and android device rules only", () => {
    const rule = (when: object) => ({ rules: [{ when, appUrl: "acme://x", targetUrl: "https://store.test/x" }] });
    expect(RulesInput.safeParse(rule({ device: "ios" })).success).toBe(true);
    expect(RulesInput.safeParse(rule({ device: "android" })).success).toBe(true);
    expect(RulesInput.safeParse(rule({ device: "desktop" })).success).toBe(false);
    expect(RulesInput.safeParse(rule({ country: "DE" })).success).toBe(false);
  });
});

test("androidIntentUrl: the app URL's scheme and path, the fallback encoded", () => {
  expect(androidIntentUrl("Acme://sale/summer?x=1", "https://play.test/a?id=b&c=d")).toBe(
    "intent://sale/summer?x=1#Intent;scheme=acme;S.browser_fallback_url=https%3A%2F%2Fplay.test%2Fa%3Fid%3Db%26c%3Dd;end",
  );
});

test("isInAppBrowser: Instagram, Facebook, TikTok and LinkedIn; not Safari, Chrome or X", () => {
  for (const ua of [
    "Mozilla/5.0 (iPhone) Mobile/15E148 Instagram 307.0.0.34.111",
    "Mozilla/5.0 (iPhone) Mobile/15E148 [FBAN/FBIOS;FBAV/442.0.0.40.111]",
    "Mozilla/5.0 (Linux; Android 13; wv) Chrome/119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/442.0.0.33.113;]",
    "Mozilla/5.0 (Linux; Android 12; wv) Chrome/119 Mobile Safari/537.36 musical_ly BytedanceWebview/d8a21c6",
    "Mozilla/5.0 (iPhone) Mobile/15E148 [LinkedInApp]/9.29.8962",
  ])
    expect(isInAppBrowser(ua), ua).toBe(true);
  for (const ua of [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 10; K) Chrome/131.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (iPhone) Mobile/15E148 Twitter for iPhone/10.14",
  ])
    expect(isInAppBrowser(ua), ua).toBe(false);
});

test("openInAppPage escapes what it writes and carries no script", () => {
  const html = openInAppPage('Sale <b>"now"</b>', "acme://x?a=1&b=2", "https://store.test/?a=1&b=2", true);
  expect(html).toContain("<title>Sale &lt;b&gt;&quot;now&quot;&lt;/b&gt;</title>");
  expect(html).toContain('<meta http-equiv="refresh" content="0;url=acme://x?a=1&amp;b=2">');
  expect(html).toContain('href="https://store.test/?a=1&amp;b=2"');
  expect(html).not.toContain("<script");
  expect(openInAppPage("t", "acme://x", "https://s.test/", false)).not.toContain("refresh");
});
