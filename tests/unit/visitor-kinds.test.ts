// One test per list of src/go/visitor-kinds.ts, from real User-Agent strings (docs/decisions/0059): preview crawlers
// and search engines get the card under their platform, every other bot is counted under its kind, people stay people.
import { describe, expect, test } from "bun:test";
import { classifyUserAgent, createVisitorClassifier, getsCard, PREVIEW_PLATFORMS } from "../../src/go/classify.ts";
import { crawlerAgents } from "../helpers/crawler-agents.ts";

const PREVIEW: Record<string, string> = {
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)": "facebook",
  "Twitterbot/1.0": "x",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)": "slack",
  "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)": "linkedin",
  "Mastodon/4.2.0 (http.rb/5.1.1; +https://mastodon.social/)": "mastodon",
  "Mozilla/5.0 (compatible; Bluesky Cardyb/1.1; +mailto:support@bsky.app)": "bluesky",
  "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)": "pinterest",
  "Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)": "reddit",
  "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5": "skype",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview":
    "teams",
  "facebookexternalhit/1.1;line-poker/1.0": "line",
  "facebookexternalhit/1.1; kakaotalk-scrap/1.0; +https://devtalk.kakao.com/t/scrap/33984": "kakaotalk",
  "Snap URL Preview Service; bot; snapchat; https://developers.snap.com/robots": "snapchat",
  "Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)": "vk",
  "Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)": "embedly",
  "Iframely/1.3.1 (+https://iframely.com/docs/about)": "iframely",
  "TelegramBot (like TwitterBot)": "telegram",
  "WhatsApp/2.23.20.0": "whatsapp",
  "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)": "discord",
};

const SEARCH: Record<string, string> = {
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "google",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)": "bing",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)":
    "apple",
  "Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)": "duckduckgo",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)": "yandex",
  "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)": "baidu",
  "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)": "yahoo",
  "Mozilla/5.0 (compatible; Yeti/1.1; +http://naver.me/spd)": "naver",
  "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)": "seznam",
  "Mozilla/5.0 (compatible; Qwantbot/1.0_4193332; +https://help.qwant.com/bot/)": "qwant",
  "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)":
    "petal",
  "Mozilla/5.0 (compatible; MojeekBot/0.11; +https://www.mojeek.com/bot.html)": "mojeek",
  "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)": "sogou",
};

const OTHER: Record<string, readonly string[]> = {
  tool: [
    "curl/8.5.0",
    "Wget/1.21.4",
    "python-requests/2.31.0",
    "Python-urllib/3.11",
    "Python/3.11 aiohttp/3.9.1",
    "python-httpx/0.27.0",
    "Go-http-client/1.1",
    "Go-http-client/2.0",
    "Java/17.0.9",
    "Java-http-client/17.0.9",
    "okhttp/4.12.0",
    "Apache-HttpClient/4.5.14 (Java/17.0.9)",
    "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
    "axios/1.6.2",
    "node",
    "undici",
    "libwww-perl/6.72",
    "PostmanRuntime/7.36.0",
    "insomnia/8.4.5",
    "HTTPie/3.2.2",
    "Ruby",
    "Faraday v2.7.11",
    "GuzzleHttp/7",
    "Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.22621.2506",
    "Deno/1.38.5",
    "Bun/1.1.0",
    "Scrapy/2.11.0 (+https://scrapy.org)",
    "Dart/3.2 (dart:io)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
  ],
  monitor: [
    "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
    "Mozilla/5.0 (compatible; Pingdom.com_bot_version_1.4_(http://www.pingdom.com/))",
    "GoogleStackdriverMonitoring-UptimeChecks(https://cloud.google.com/monitoring)",
    "Amazon-Route53-Health-Check-Service (ref 6f2d5b4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b; report http://amzn.to/1vsZADi)",
    "ELB-HealthChecker/2.0",
    "kube-probe/1.27",
    "check_http/v2.3.3 (monitoring-plugins 2.3.3)",
    "NewRelicPinger/1.0 (1234567)",
    "Uptime-Kuma/1.23.11",
    "Better Uptime Bot Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.93 Safari/537.36",
    "Site24x7",
  ],
  auditor: [
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Google Page Speed Insights)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 GTmetrix",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 PTST/240101.123456",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/61.0.3163.100 Safari/537.36 PingdomPageSpeed/1.0 (pingbot/2.0; +http://www.pingdom.com/)",
  ],
  scanner: [
    "Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)",
    "Mozilla/5.0 (compatible; CensysInspect/1.1; +https://about.censys.io/)",
    "Expanse, a Palo Alto Networks company, searches across the global IPv4 space multiple times per day to identify customers&#39; presences on the Internet. If you would like to be excluded from our scans, please send IP addresses/domains to: scaninfo@paloaltonetworks.com",
    "Mozilla/5.00 (Nikto/2.1.6) (Evasions:None) (Test:Port Check)",
    "sqlmap/1.7.2#stable (https://sqlmap.org)",
    "Mozilla/5.0 zgrab/0.x",
    "Mozilla/5.0 (l9explore/1.2.2; +https://leakix.net)",
    "Mozilla/5.0 (compatible; NetcraftSurveyAgent/1.0; +info@netcraft.com)",
    "Mozilla/5.0 (compatible; InternetMeasurement/1.0; +https://internet-measurement.com/)",
  ],
  expander: [
    "W3C-checklink/5.0.0 libwww-perl/6.68",
    "LinkChecker/10.2.1 (+https://linkchecker.github.io/linkchecker/)",
    "CheckShortURL/1.0 (+https://checkshorturl.com)",
  ],
  seo: [
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
    "Screaming Frog SEO Spider/19.0",
    "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)",
  ],
  other: ["", "Mozilla/5.0 (compatible; SomeUnknownBot/1.0; +https://example.com/bot)"],
};

const PEOPLE = [
  ...Object.values(crawlerAgents.people),
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.2.19.106 (iPhone14,5; iOS 17_0; en_US; en; scale=3.00; 1170x2532; 541452297)",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.8962",
];

describe("preview crawlers get the card, under their platform", () => {
  for (const [agent, platform] of Object.entries(PREVIEW))
    test(platform, () => expect(classifyUserAgent(agent)).toEqual({ isBot: true, kind: "preview", platform }));
});

describe("search engines get the card, under their platform", () => {
  for (const [agent, platform] of Object.entries(SEARCH))
    test(platform, () => expect(classifyUserAgent(agent)).toEqual({ isBot: true, kind: "search", platform }));
});

describe("every other bot gets the 302 and is counted under its kind", () => {
  for (const [kind, agents] of Object.entries(OTHER))
    test(kind, () => {
      for (const agent of agents) {
        expect({ agent, ...classifyUserAgent(agent) }).toEqual({ agent, isBot: true, kind, platform: kind } as never);
        expect(getsCard(kind as never)).toBe(false);
      }
    });
});

test("people's browsers, in-app ones included, stay people", () => {
  for (const agent of PEOPLE)
    expect({ agent, ...classifyUserAgent(agent) }).toEqual({ agent, isBot: false, kind: "person", platform: null });
});

test("the memoised classifier: a card and its counter only for card fetchers", () => {
  const classify = createVisitorClassifier();
  expect(classify("curl/8.5.0")).toMatchObject({ isBot: true, card: false, platform: "tool", platformIndex: -1 });
  expect(classify("Twitterbot/1.0")).toMatchObject({
    card: true,
    variant: "x",
    platformIndex: PREVIEW_PLATFORMS.indexOf("x"),
  });
  expect(classify("Twitterbot/1.0")).toBe(classify("Twitterbot/1.0"));
  expect(new Set(PREVIEW_PLATFORMS).size).toBe(PREVIEW_PLATFORMS.length);
});
