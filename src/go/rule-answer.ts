// What /go answers for a link with rules (docs/decisions/0021): expiry by time or by people counted, a password,
// and targets by device or country. Crawlers always get the owner's card (until expiry, then a neutral expired
// one; behind a password without the destination, src/go/preview-page.ts); only people meet the rules.
// Links without rules never come here (src/go/go-answer.ts). A device rule may open an app, its target the fallback
// (src/go/open-in-app.ts, docs/decisions/0060).
import type { Clock } from "../clock.ts";
import type { ClickCaps, HitCounter } from "../db/ports.ts";
import type { GoLink } from "../link-cache/held-link.ts";
import { renderPreviewPage } from "./preview-page.ts";
import { createCountryLookup, type CountryOf } from "./country.ts";
import { createDeviceClassifier } from "./device.ts";
import { parseGoRules, type GoRules, type TargetRule } from "../rules/model.ts";
import { androidIntentUrl, createInAppBrowserCheck, openInAppPage } from "./open-in-app.ts";
import { hasPasswordCookie, passwordCookie, passwordPage, type PasswordFormState } from "./password.ts";
import { createPasswordTries } from "./password-tries.ts";

/** A /go request as the rules see it. `address`: the client's, read only when a rule needs it. */
export type RuleVisit = {
  request: Request;
  isGet: boolean;
  isBot: boolean;
  /** A person, not a bot of any kind (a monitor or a script is answered as a person is, but counts no click). */
  isPerson: boolean;
  isPrefetch: boolean;
  address: () => string;
};
/** Serves the visit as a link without rules would: records the view, then the card or a 302 to `targetUrl` (null: the link's own). */
export type Proceed = (targetUrl: string | null) => Response;

export type RuleAnswererDeps = {
  clock: Clock;
  publicUrl: string;
  extraHeaders: Record<string, string>;
  /** The "This link has expired" page (410). */
  expiredHtml: string;
  takeClick: ClickCaps["takeClick"];
  /**
   * Called once the last allowed click is taken: announces the link as changed (src/db/ports.ts ChangeBus), so
   * that every node reads its count again and shows crawlers the expired card at once.
   */
  capReached: (link: GoLink) => void;
  countHit: HitCounter["countHit"];
  countryOf?: CountryOf;
};

/** The parsed rules of a cached link, and whether its click cap is reached (counts only go up). */
type Ruled = { rules: GoRules; exhausted: boolean };

const capReachedIn = (rules: GoRules, clicks: number | null) =>
  rules.maxClicks !== undefined && (clicks ?? 0) >= rules.maxClicks;

export function createRuleAnswerer(deps: RuleAnswererDeps) {
  // Per cached link object: a change to the link replaces the object, and with it this entry.
  const parsed = new WeakMap<GoLink, Ruled>();
  const ruledOf = (link: GoLink): Ruled => {
    let ruled = parsed.get(link);
    if (!ruled) {
      const rules = parseGoRules(link.goRules) ?? {};
      parsed.set(link, (ruled = { rules, exhausted: capReachedIn(rules, link.clicks) }));
    }
    return ruled;
  };
  const deviceOf = createDeviceClassifier();
  let countryOf = deps.countryOf;
  const html = {
    ...deps.extraHeaders,
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
  };
  const secure = deps.publicUrl.startsWith("https:");

  const page = (status: number, body: string, isGet: boolean, extra: Record<string, string> = {}) =>
    new Response(isGet ? body : null, { status, headers: { ...html, ...extra } });
  const redirect = (location: string, status = 302, extra: Record<string, string> = {}) =>
    new Response(null, {
      status,
      headers: { ...deps.extraHeaders, Location: location, "Cache-Control": "no-store", ...extra },
    });

  /** People: the expired address, or the small 410 page. Nothing is counted. */
  const expired = (rules: GoRules, isGet: boolean) =>
    rules.expiredUrl ? redirect(rules.expiredUrl) : page(410, deps.expiredHtml, isGet);
  /** Crawlers after expiry: a card that names no target and shows nothing of the owner's. */
  const expiredCard = (link: GoLink, isGet: boolean) =>
    page(
      200,
      renderPreviewPage(
        {
          ...link,
          title: "This link has expired",
          description: "The owner of this link set it to expire.",
          imageUrl: null,
          imageSquareUrl: null,
          imageXUrl: null,
          xTitle: null,
          whatsappDescription: null,
          targetUrl: deps.publicUrl,
        },
        deps.publicUrl,
      ),
      isGet,
    );

  /** The first rule that matches the person, else null (the link's own target). */
  const ruleFor = (rules: GoRules, visit: RuleVisit): TargetRule | null => {
    for (const rule of rules.rules ?? []) {
      const when = rule.when;
      if (
        "device" in when
          ? deviceOf(visit.request.headers.get("user-agent") ?? "") === when.device
          : countryOfVisit(visit) === when.country
      )
        return rule;
    }
    return null;
  };
  const inAppBrowser = createInAppBrowserCheck();
  /**
   * A rule with an app: the view is recorded (`served`, the 302 to the fallback, shows it was), then Android gets its
   * intent (the browser falls back by itself), iOS a page that tries the app and keeps the fallback at hand, and an
   * in-app browser the same page without the try, where a tap is what opens an app.
   */
  const toApp = (link: GoLink, rule: TargetRule & { appUrl: string }, visit: RuleVisit, served: Response) => {
    if (served.status !== 302) return served;
    const android = "device" in rule.when && rule.when.device === "android";
    const open = android ? androidIntentUrl(rule.appUrl, rule.targetUrl) : rule.appUrl;
    if (inAppBrowser(visit.request.headers.get("user-agent") ?? ""))
      return page(200, openInAppPage(link.title, open, rule.targetUrl, false), visit.isGet);
    if (android) return redirect(open);
    return page(200, openInAppPage(link.title, open, rule.targetUrl, true), visit.isGet);
  };
  const countryOfVisit = (visit: RuleVisit) => (countryOf ??= createCountryLookup())(visit.address());

  const isExpiredByTime = (rules: GoRules) => rules.expiresAt !== undefined && deps.clock.now() >= rules.expiresAt;
  /** Behind a password the person has not given (here, or on this link within 24 hours). */
  const locked = (rules: GoRules, link: GoLink, visit: RuleVisit) =>
    rules.passwordHash !== undefined &&
    !hasPasswordCookie(visit.request.headers.get("cookie"), rules.passwordHash, link.id, deps.clock.now());
  const tries = createPasswordTries(deps);

  return {
    answer(link: GoLink, visit: RuleVisit, proceed: Proceed): Response | Promise<Response> {
      const ruled = ruledOf(link);
      const { rules } = ruled;
      if (visit.isBot)
        return isExpiredByTime(rules) || ruled.exhausted ? expiredCard(link, visit.isGet) : proceed(null);
      // The expired address is a destination too: behind the password like the others.
      if (isExpiredByTime(rules) || ruled.exhausted)
        return rules.expiredUrl && locked(rules, link, visit)
          ? page(200, passwordPage(link.title, "ask"), visit.isGet)
          : expired(rules, visit.isGet);
      if (locked(rules, link, visit)) return page(200, passwordPage(link.title, "ask"), visit.isGet);
      const rule = ruleFor(rules, visit);
      const appUrl = rule?.appUrl;
      const go = (): Response => {
        const served = proceed(rule?.targetUrl ?? null);
        return rule && appUrl ? toApp(link, { ...rule, appUrl }, visit, served) : served;
      };
      // Only a person's visit takes one of the allowed clicks: not a HEAD, not a browser's prefetch, not a bot.
      if (rules.maxClicks === undefined || !visit.isGet || visit.isPrefetch || !visit.isPerson) return go();
      return deps.takeClick(link.id, rules.maxClicks).then((clicks) => {
        // The one visit that takes the last click tells every node; one that finds the cap reached was told (or will be).
        if (clicks !== null && capReachedIn(rules, clicks)) deps.capReached(link);
        if (clicks === null || capReachedIn(rules, clicks)) ruled.exhausted = true;
        return clicks === null ? expired(rules, visit.isGet) : go();
      });
    },

    /**
     * POST to the short address: the password form's answer. A right one sets the cookie, scoped to `cookiePath`
     * (the address asked for, an earlier one too, without a version, so that its versions share it), and sends the person back.
     */
    async submit(link: GoLink, visit: RuleVisit, cookiePath: string): Promise<Response> {
      const { rules } = ruledOf(link);
      if (rules.passwordHash === undefined || visit.isBot)
        return new Response(null, { status: 405, headers: { ...deps.extraHeaders, Allow: "GET, HEAD" } });
      // No expired address to guard: no password to check, and nothing to give away.
      if (isExpiredByTime(rules) && !rules.expiredUrl) return expired(rules, true);
      const form = (state: PasswordFormState, status: number, extra?: Record<string, string>, waitSeconds?: number) =>
        page(status, passwordPage(link.title, state, waitSeconds), true, extra);
      const refused = await tries.admit(link.id, visit.address());
      if (refused)
        return form(
          refused.who === "link" ? "locked" : "slow-down",
          429,
          { "Retry-After": String(refused.retryAfterSeconds) },
          refused.retryAfterSeconds,
        );
      let password: unknown = null;
      try {
        password = (await visit.request.formData()).get("password");
      } catch {
        // Not a form: treated as no password.
      }
      if (
        typeof password !== "string" ||
        !(await Bun.password.verify(password, rules.passwordHash).catch(() => false))
      ) {
        await tries.failed(link.id);
        return form("wrong", 401);
      }
      const now = deps.clock.now();
      return redirect(new URL(visit.request.url).pathname, 303, {
        "Set-Cookie": passwordCookie(rules.passwordHash, link.id, cookiePath, now, secure),
      });
    },
  };
}

export type RuleAnswerer = ReturnType<typeof createRuleAnswerer>;
