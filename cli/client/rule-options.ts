// The rule and UTM options of `links create` and `links edit`: expiry, a password, targets by device or country,
// and campaign tags written into the target URL (src/utm/model.ts). Options not given leave the link's rules as they are.
import type { Command } from "commander";
import type { LinkJson } from "../../src/links/wire.ts";
import { brokenText, DEVICES, expiredText, ruleText, visitsUsedText } from "../../src/rules/model.ts";
import { mergeUtm, UTM_PRESETS, type UtmTags } from "../../src/utm/model.ts";
import { usageError } from "./http.ts";

export type RuleOptions = {
  expiresAt?: string;
  maxClicks?: string;
  expiredUrl?: string;
  password?: string;
  rule?: string[];
  clearRules?: boolean;
  utmPreset?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addRuleOptions(command: Command): Command {
  return command
    .option(
      "--expires-at <instant>",
      'people find the link expired from this ISO 8601 instant on, like 2026-12-31T23:59:00Z ("" removes it)',
    )
    .option("--max-clicks <n>", 'people allowed in all; the next one finds the link expired ("" removes it)')
    .option(
      "--expired-url <url>",
      'where people go once the link has expired (default: a small "This link has expired" page)',
    )
    .option(
      "--password <password>",
      'people must enter it before they are sent on; crawlers still get the card ("" removes it)',
    )
    .option(
      "--rule <when=url>",
      `a target by device (${DEVICES.join(", ")}) or country (two letters): device:ios=https://… or country:DE=https://…; repeat it, first match wins`,
      collect,
    )
    .option("--clear-rules", "remove every device and country rule")
    .option(
      "--utm-preset <preset>",
      `fill utm_source and utm_medium for a platform: ${UTM_PRESETS.map((preset) => preset.id).join(", ")}`,
    )
    .option("--utm-source <text>", "utm_source, written into the target URL's query")
    .option("--utm-medium <text>", "utm_medium")
    .option("--utm-campaign <text>", "utm_campaign")
    .option("--utm-term <text>", "utm_term")
    .option("--utm-content <text>", "utm_content");
}

/** `target` with the UTM options written into its query (its other parameters kept). */
export function withUtm(target: string, options: RuleOptions): string {
  const preset =
    options.utmPreset === undefined ? undefined : UTM_PRESETS.find((candidate) => candidate.id === options.utmPreset);
  if (options.utmPreset !== undefined && !preset)
    throw usageError(`--utm-preset must be one of ${UTM_PRESETS.map((candidate) => candidate.id).join(", ")}`);
  const tags: UtmTags = {
    ...preset?.tags,
    ...(options.utmSource !== undefined ? { utm_source: options.utmSource } : {}),
    ...(options.utmMedium !== undefined ? { utm_medium: options.utmMedium } : {}),
    ...(options.utmCampaign !== undefined ? { utm_campaign: options.utmCampaign } : {}),
    ...(options.utmTerm !== undefined ? { utm_term: options.utmTerm } : {}),
    ...(options.utmContent !== undefined ? { utm_content: options.utmContent } : {}),
  };
  if (Object.keys(tags).length === 0) return target;
  if (!URL.canParse(target)) throw usageError(`--target must be a URL to add UTM tags to; got "${target}"`);
  return mergeUtm(target, tags);
}

/** device:ios=https://… → {"when": {"device": "ios"}, "targetUrl": "https://…"} (the server checks the rest). */
function parseRule(text: string) {
  const match = /^(device|country):([^=]+)=(.+)$/.exec(text);
  if (!match) throw usageError(`--rule must look like device:ios=https://… or country:DE=https://…; got "${text}"`);
  return { when: { [match[1]!]: match[2]!.trim() }, targetUrl: match[3]!.trim() };
}

/** Adds the rule options given to a link form. */
export function addRules(form: FormData, options: RuleOptions): FormData {
  if (options.expiresAt !== undefined) form.append("expiresAt", options.expiresAt);
  if (options.maxClicks !== undefined) form.append("maxClicks", options.maxClicks);
  if (options.expiredUrl !== undefined) form.append("expiredUrl", options.expiredUrl);
  if (options.password !== undefined) form.append("password", options.password);
  if (options.rule?.length) form.append("rules", JSON.stringify(options.rule.map(parseRule)));
  else if (options.clearRules) form.append("rules", "");
  return form;
}

/** The lines `links show` prints about a link's rules and health. */
export function ruleLines(link: LinkJson): string[] {
  const { health } = link;
  return [
    ...(link.expiresAt ? [`Expires      ${link.expiresAt}`] : []),
    ...(link.maxClicks !== null
      ? [`Max clicks   ${link.maxClicks} (${visitsUsedText(link.maxClicks, link.visitsUsed)})`]
      : []),
    ...(link.expiredUrl ? [`When expired ${link.expiredUrl}`] : []),
    ...(link.hasPassword ? ["Password     yes"] : []),
    ...link.rules.map((rule) => `Rule         ${ruleText(rule)}`),
    `Health       ${healthText(link)}${health.checkedAt ? ` (checked ${health.checkedAt})` : ""}`,
  ];
}

/** A link's status as the CLI says it: "disabled", "Expired", "3 of 3 visits used" (people no longer reach it), or "active". */
export function statusText(link: LinkJson, now: number): string {
  return link.status === "active" ? (expiredText(link, now) ?? "active") : link.status;
}

/** "ok", "unchecked" or "BROKEN: HTTP 404" (or "no answer", and the rule when it was a rule's target). */
export function healthText(link: LinkJson): string {
  return link.health.status === "broken" ? `BROKEN: ${brokenText(link)}` : link.health.status;
}
