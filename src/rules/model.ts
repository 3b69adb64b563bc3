// A link's rules as the API, the CLI and the editor write them (expiry, password, targets by device or country),
// and the form /go keeps them in (docs/decisions/0021). Pure zod and data: islands and the CLI import it.
import { z } from "zod";
import { canonicalUrlField, ENCODED_URL_TOO_LONG } from "../links/url.ts";

export const DEVICES = ["ios", "android", "desktop"] as const;
export type Device = (typeof DEVICES)[number];
export const MAX_RULES = 20;
export const PASSWORD_MAX = 200;
export const MAX_CLICKS_LIMIT = 1_000_000_000;

/**
 * A rule: where people matching `when` go instead of the link's target. The first match wins. A device rule for ios
 * or android may name an app to open (`appUrl`, a custom scheme), `targetUrl` then being the https fallback, such
 * as the store (docs/decisions/0060).
 */
export type TargetRule = { when: { device: Device } | { country: string }; targetUrl: string; appUrl?: string };

/** An app URL's length limit, as a target's. */
export const APP_URL_MAX = 2048;

/**
 * Schemes an app URL may not have: script and local content (javascript:, data:, file:, …), the browser's own pages,
 * and the web's (an https address is a targetUrl, checked as every destination is). intent: is ours to write: /go
 * builds it for Android from the app URL and the fallback.
 */
export const DENIED_APP_SCHEMES: ReadonlySet<string> = new Set([
  "javascript",
  "vbscript",
  "livescript",
  "data",
  "file",
  "blob",
  "filesystem",
  "about",
  "view-source",
  "jar",
  "content",
  "intent",
  "android-app",
  "chrome",
  "chrome-extension",
  "moz-extension",
  "safari-extension",
  "ms-browser-extension",
  "res",
  "resource",
  "opera",
  "edge",
  "http",
  "https",
  "ws",
  "wss",
  "ftp",
  "ftps",
  "sftp",
  "smb",
  "nfs",
  "gopher",
  "ldap",
  "mailto",
  "tel",
  "sms",
  "x-apple-health",
]);

/** Why `url` cannot be an app URL, or null: a scheme of its own, allowed, then no space, quote, angle bracket or fragment. */
export function appUrlProblem(url: string): string | null {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):(.+)$/s.exec(url);
  if (!scheme) return "must be an app URL like myapp://path";
  if (DENIED_APP_SCHEMES.has(scheme[1]!.toLowerCase())) return `${scheme[1]!.toLowerCase()}: is not an app scheme`;
  // Written into a page attribute and an Android intent (whose parameters follow the #): nothing that could leave it.
  if (/[\s"'<>`#\\\p{Cc}]/u.test(url)) return "must not hold spaces, quotes, angle brackets, backslashes or #";
  return null;
}

/** What /go needs of a link's rules, stored as JSON on its link_rules row and cached with the link. */
export type GoRules = {
  /** Epoch milliseconds. */
  expiresAt?: number;
  maxClicks?: number;
  expiredUrl?: string;
  /** Bun.password's argon2id hash: never leaves the server. */
  passwordHash?: string;
  rules?: TargetRule[];
};

/** Form fields arrive as text: an empty value means "none" (null); absent means "keep" (undefined). */
const blankToNull = (value: unknown) => (value === "" || value === "null" ? null : value);
const jsonText = (value: unknown) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

const httpUrl = (message: string) => canonicalUrlField(message, ENCODED_URL_TOO_LONG);

const RULE_MESSAGE = 'must be a list like [{"when": {"device": "ios"}, "targetUrl": "https://…"}]';

export const TargetRuleInput = z
  .strictObject(
    {
      when: z.union(
        [
          z.strictObject({ device: z.enum(DEVICES, "device must be ios, android or desktop") }),
          z.strictObject({
            country: z
              .string()
              .trim()
              .toUpperCase()
              .regex(/^[A-Z]{2}$/, "country must be a two-letter code like DE"),
          }),
        ],
        { error: 'must be {"device": "ios" | "android" | "desktop"} or {"country": "DE"}' },
      ),
      targetUrl: httpUrl("must be a valid http(s) URL"),
      appUrl: z
        .string("must be text")
        .trim()
        .max(APP_URL_MAX, `must be ${APP_URL_MAX} characters or less`)
        .superRefine((url, ctx) => {
          const problem = appUrlProblem(url);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        })
        .optional(),
    },
    RULE_MESSAGE,
  )
  .superRefine((rule, ctx) => {
    if (rule.appUrl !== undefined && !("device" in rule.when && rule.when.device !== "desktop"))
      ctx.addIssue({ code: "custom", path: ["appUrl"], message: "only a device rule for ios or android opens an app" });
  });

/**
 * The rule fields of a create or update body. Absent keeps what the link has (a new link: none); null or an
 * empty value removes it.
 */
export const RuleFields = {
  expiresAt: z.preprocess(
    blankToNull,
    z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date and time like 2026-12-31T23:59:00Z" })
      .transform((value) => Date.parse(value))
      .nullish(),
  ),
  maxClicks: z.preprocess((value) => {
    const given = blankToNull(value);
    return typeof given === "string" ? Number(given.trim()) : given;
  }, z
    .number("must be a whole number")
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(MAX_CLICKS_LIMIT, `must be at most ${MAX_CLICKS_LIMIT}`)
    .nullish()),
  expiredUrl: z.preprocess(blankToNull, httpUrl("must be a valid http(s) URL").nullish()),
  password: z.preprocess(
    blankToNull,
    z.string("must be text").max(PASSWORD_MAX, `must be ${PASSWORD_MAX} characters or less`).nullish(),
  ),
  rules: z.preprocess(
    (value) => jsonText(blankToNull(value)),
    z.array(TargetRuleInput, RULE_MESSAGE).max(MAX_RULES, `at most ${MAX_RULES} rules`).nullish(),
  ),
};

export const RulesInput = z.object(RuleFields);
export type RulesInput = z.output<typeof RulesInput>;

/** Whether an input touches the rules at all (an edit that leaves them alone writes nothing for them). */
export const touchesRules = (input: RulesInput): boolean =>
  input.expiresAt !== undefined ||
  input.maxClicks !== undefined ||
  input.expiredUrl !== undefined ||
  input.password !== undefined ||
  input.rules !== undefined;

/** People counted against a visit cap: "2 of 3 visits used" (never more than the cap, even after it was lowered). */
export const visitsUsedText = (maxClicks: number, visitsUsed: number): string =>
  `${Math.min(visitsUsed, maxClicks)} of ${maxClicks} visits used`;

/**
 * Why people no longer reach a link's target, as the dashboard, the editor and the CLI say it: "Expired" once its
 * expiry passed, "3 of 3 visits used" once its cap is reached; null while it is live.
 */
export function expiredText(
  link: { expiresAt: Date | string | null; maxClicks: number | null; visitsUsed: number },
  now: number,
): string | null {
  if (link.expiresAt !== null && new Date(link.expiresAt).getTime() <= now) return "Expired";
  if (link.maxClicks !== null && link.visitsUsed >= link.maxClicks)
    return visitsUsedText(link.maxClicks, link.visitsUsed);
  return null;
}

/** A rule in words: "device ios → https://…". */
export const ruleText = (rule: TargetRule): string =>
  `${"device" in rule.when ? `device ${rule.when.device}` : `country ${rule.when.country}`} → ${rule.appUrl ? `app ${rule.appUrl}, else ` : ""}${rule.targetUrl}`;

/**
 * What a broken link's check found, in words: "HTTP 404" (or "no answer"), and the rule whose target it was when
 * that was not the link's own target: "HTTP 404 at rule device ios → https://…".
 */
export function brokenText(link: {
  targetUrl: string;
  rules: TargetRule[];
  health: { httpStatus: number | null; failedUrl: string | null };
}): string {
  const { httpStatus, failedUrl } = link.health;
  const found = httpStatus !== null ? `HTTP ${httpStatus}` : "no answer";
  if (failedUrl === null || failedUrl === link.targetUrl) return found;
  const rule = link.rules.find((candidate) => candidate.targetUrl === failedUrl);
  return `${found} at rule ${rule ? ruleText(rule) : failedUrl}`;
}

/** The stored JSON read back; null for a link without rules (or a row that is only about health). */
export function parseGoRules(text: string | null): GoRules | null {
  if (text === null) return null;
  const rules = JSON.parse(text) as GoRules;
  return Object.keys(rules).length > 0 ? rules : null;
}

/**
 * Whether stored rules put the link behind a password: then its destinations (target, rule targets, expiredUrl)
 * are shown to no one who has not given it (crawler pages, the inspect page, the disabled warning).
 */
export const isPasswordProtected = (text: string | null): boolean =>
  text !== null && parseGoRules(text)?.passwordHash !== undefined;
