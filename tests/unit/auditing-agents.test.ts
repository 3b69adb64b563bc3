// Page-speed and monitoring tools are bots of their kind (never people, and no card: docs/decisions/0059); in-app
// browsers stay people.
import { describe, expect, test } from "bun:test";
import { classifyUserAgent } from "../../src/go/classify.ts";

// Real User-Agents as these tools send them; several of them pass isbot alone as browsers.
const AUDITING_TOOLS: Record<string, string> = {
  GTmetrix:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 GTmetrix",
  "YellowLabTools (YLT)":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 YLT",
  YellowLabTools:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 YellowLabTools/2.0",
  "Miniature.io":
    "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/31.0.1650.63 Safari/537.36 Miniature.io/6.0",
  "Pingdom page speed":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/61.0.3163.100 Safari/537.36 PingdomPageSpeed/1.0 (pingbot/2.0; +http://www.pingdom.com/)",
  "Pingdom uptime": "Mozilla/5.0 (compatible; Pingdom.com_bot_version_1.4_(http://www.pingdom.com/))",
  UptimeRobot: "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
  "Chrome-Lighthouse":
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
  "Lighthouse CLI":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Lighthouse",
  PageSpeed:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Google Page Speed Insights)",
  WebPageTest:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 PTST/240101.123456",
  HeadlessChrome:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
};

const IN_APP_BROWSERS: Record<string, string> = {
  Instagram:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.2.19.106 (iPhone14,5; iOS 17_0; en_US; en; scale=3.00; 1170x2532; 541452297)",
  "Facebook (MetaIAB)":
    "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UD1A.231105.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.43 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/444.0.0.46.110;IABMV/1;] MetaIAB",
  LinkedIn:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.8962",
  X: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.14",
};

describe("auditing and monitoring tools are bots of their kind, not people", () => {
  for (const [tool, agent] of Object.entries(AUDITING_TOOLS)) {
    test(tool, () => {
      const { isBot, kind, platform } = classifyUserAgent(agent);
      expect({ isBot, kind: ["auditor", "monitor", "tool"].includes(kind), platform }).toEqual({
        isBot: true,
        kind: true,
        platform: kind,
      });
    });
  }
});

describe("in-app browsers stay people", () => {
  for (const [app, agent] of Object.entries(IN_APP_BROWSERS)) {
    test(app, () => expect(classifyUserAgent(agent)).toEqual({ isBot: false, kind: "person", platform: null }));
  }
});
