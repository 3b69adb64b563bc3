// Who fetches a short URL, list by list (docs/decisions/0059). Preview crawlers and search engines get the card, by
// platform; every other bot gets the 302 a person gets and is counted under its kind. Each list is tested from real
// User-Agent strings (tests/unit/visitor-kinds.test.ts).

/** What a visitor is: a person, a bot that gets the card (preview, search), or a bot of another kind. */
export type VisitorKind =
  | "person"
  | "preview"
  | "search"
  | "tool"
  | "monitor"
  | "auditor"
  | "scanner"
  | "expander"
  | "seo"
  | "other";

/**
 * Link-preview fetchers, by platform. Order matters: iMessage's previewer names Facebook and Twitter, Line's and
 * KakaoTalk's name facebookexternalhit, Telegram's names TwitterBot. Matched only once isbot calls the agent a bot:
 * in-app browsers (Facebook, X, LinkedIn, Pinterest, Teams…) carry the same names but are people clicking.
 */
export const PREVIEW_CRAWLERS: ReadonlyArray<readonly [string, RegExp]> = [
  ["imessage", /facebookexternalhit\/[\d.]+ Facebot Twitterbot/i],
  ["line", /line-poker/i],
  ["kakaotalk", /kakaotalk-scrap/i],
  ["telegram", /TelegramBot/i],
  ["facebook", /facebookexternalhit|meta-externalagent|Facebot|facebookcatalog/i],
  ["x", /Twitterbot/i],
  ["linkedin", /LinkedInBot/i],
  ["slack", /Slackbot|Slack-ImgProxy/i],
  ["discord", /Discordbot/i],
  ["whatsapp", /WhatsApp/i],
  ["mastodon", /Mastodon/i],
  ["bluesky", /Bluesky|Cardyb/i],
  ["pinterest", /Pinterest/i],
  ["reddit", /redditbot/i],
  ["skype", /SkypeUriPreview/i],
  ["teams", /MicrosoftPreview|Teams/i],
  ["viber", /\bViber\b/i],
  ["snapchat", /Snap URL Preview|snapchat/i],
  ["vk", /vkShare/i],
  ["embedly", /Embedly/i],
  ["iframely", /Iframely/i],
];

/** Search engines, by platform: they index the card (its title, description and image) as the link's page. */
export const SEARCH_ENGINES: ReadonlyArray<readonly [string, RegExp]> = [
  ["apple", /Applebot/i],
  ["google", /Googlebot|Google-InspectionTool|GoogleOther|APIs-Google|AdsBot-Google/i],
  ["bing", /bingbot|BingPreview/i],
  ["duckduckgo", /DuckDuckBot|DuckDuckGo-Favicons-Bot/i],
  ["yandex", /YandexBot|YandexMobileBot|YandexImages|YandexRenderResourcesBot/i],
  ["baidu", /Baiduspider/i],
  ["yahoo", /Yahoo! Slurp/i],
  ["naver", /\bYeti\//i],
  ["seznam", /SeznamBot/i],
  ["qwant", /Qwantify|Qwantbot/i],
  ["petal", /PetalBot/i],
  ["mojeek", /MojeekBot/i],
  ["sogou", /Sogou web spider/i],
];

/**
 * The other bots, by kind, checked in this order after the two lists above (so "Slackbot-LinkExpanding" and
 * LinkedIn's "Apache-HttpClient" stay previews). Their tokens are the tools' own, never in a person's browser, so
 * they are matched whatever isbot says: auditors and some monitors drive a real browser that passes as a person.
 */
export const OTHER_BOTS: ReadonlyArray<readonly [VisitorKind, RegExp]> = [
  [
    "scanner",
    /\b(?:Nmap Scripting Engine|Nikto|sqlmap|masscan|zgrab|Nuclei|CensysInspect|Expanse, a Palo Alto Networks company|Qualys|Acunetix|Netsparker|Invicti|WPScan|OpenVAS|l9explore|LeakIX|NetcraftSurveyAgent|InternetMeasurement|urlscan|ModatScanner|BitSightBot)\b/i,
  ],
  [
    "monitor",
    /\b(?:UptimeRobot|Pingdom\.com_bot|StatusCake|Site24x7|Better Uptime Bot|Betteruptime|Freshping|Uptime-Kuma|Checkly|NewRelicPinger|HetrixTools|updown\.io|Uptime\.com|GoogleStackdriverMonitoring|Amazon-Route53-Health-Check-Service|ELB-HealthChecker|kube-probe|check_http|RuxitSynthetic|Catchpoint|ThousandEyes|Datadog\/Synthetics)/i,
  ],
  [
    "auditor",
    /\b(?:GTmetrix|YLT|YellowLabTools|Miniature\.io|PingdomPageSpeed|pingbot|Chrome-Lighthouse|Lighthouse|PageSpeed|Page Speed Insights|PTST|W3C_Validator|Validator\.nu)\b/i,
  ],
  ["expander", /\b(?:unshorten|CheckShortURL|urlexpander|WhereGoes|redirectdetective|LinkChecker|W3C-checklink)\b/i],
  [
    "seo",
    /\b(?:AhrefsBot|AhrefsSiteAudit|SemrushBot|MJ12bot|DotBot|rogerbot|Screaming Frog|serpstatbot|BLEXBot|DataForSeoBot|Sitebulb|barkrowler)\b/i,
  ],
  [
    "tool",
    /^(?:curl|Wget|python-requests|Python-urllib|python-httpx|Python\/[\d.]+ aiohttp|Go-http-client|Java|Java-http-client|okhttp|Apache-HttpClient|node-fetch|axios|node|undici|libwww-perl|PostmanRuntime|insomnia|HTTPie|Ruby|Faraday|GuzzleHttp|Deno|Bun|Scrapy|Dart|reqwest)\b|\b(?:WindowsPowerShell|HeadlessChrome|PhantomJS)\b/i,
  ],
];
