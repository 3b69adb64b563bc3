// The pages: public ones (/, /pricing, /about, /privacy, /terms, /contact) and the signed-in app (/admin…).
import { Elysia } from "elysia";
import { createElement, type FunctionComponent } from "react";
import { listApiTokens } from "../auth/api-tokens.ts";
import { authPlugin, type Viewer } from "../auth/plugin.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import { PLANS } from "../billing/plans.ts";
import type { AppContext } from "../context.ts";
import type { User } from "../db/tables.ts";
import { takeFlash } from "../http/flash.ts";
import { linkDeps } from "../links/routes.ts";
import type { LinkView } from "../links/present.ts";
import { getLinkBySlug, listLinks } from "../links/queries.ts";
import { dashboardViews, linkStats } from "../links/stats.ts";
import { DashboardPage } from "./dashboard.tsx";
import { PrivacyPage } from "./privacy.tsx";
import { subscribed } from "./guards.ts";
import { LinkEditorPage, LinkNotFoundPage } from "./link-editor.tsx";
import type { PlanListProps } from "./plan-list.tsx";
import { ContactPage, LandingPage, PlaceholderPage, PricingPage } from "./public.tsx";

type Cookie = Parameters<typeof takeFlash>[0];
const CHART_DAYS = 30;
// Rendering a link row is the dashboard's main cost: a page of them keeps it cheap at any link count.
const DASHBOARD_PAGE_SIZE = 20;

export function pageRoutes(ctx: AppContext) {
  const billingEnabled = ctx.config.stripe !== null;
  const links = linkDeps(ctx);

  /** A page for whoever is asking, with the flash toast left by a redirect, if any. */
  const page = <P extends object>(component: FunctionComponent<P>, props: P, title: string, user: User | null, cookie: Cookie, status = 200) =>
    ctx.pages.response(createElement(component, props), { title, user, flash: takeFlash(cookie), status });

  const plansFor = async (viewer: Viewer | null): Promise<PlanListProps> => {
    const businessCountry = ctx.config.businessCountry;
    if (!viewer) return { plans: PLANS, signedIn: false, currentPlan: null, businessCountry };
    const { active, plan } = await entitlementFor(ctx.db, billingEnabled, viewer.user.id);
    return { plans: PLANS, signedIn: true, currentPlan: active ? plan : null, businessCountry };
  };

  const dashboard = async (user: User, tab: "links" | "subscription", requestedPage: number) => {
    const { plan, subscription } = await entitlementFor(ctx.db, billingEnabled, user.id);
    const stats = await linkStats(links, user);
    const pages = Math.max(1, Math.ceil(stats.totalLinks / DASHBOARD_PAGE_SIZE));
    const page = Math.min(Math.max(1, requestedPage), pages);
    const shown = await listLinks(links, user, "live", { limit: DASHBOARD_PAGE_SIZE, offset: (page - 1) * DASHBOARD_PAGE_SIZE });
    const { series, platforms } = await dashboardViews(links, user, shown.map((l) => l.id), CHART_DAYS);
    return {
      tab,
      used: stats.totalLinks,
      quota: plan.linkQuota,
      stats,
      links: shown,
      page,
      pages,
      deletedLinks: await listLinks(links, user, "deleted", { limit: DASHBOARD_PAGE_SIZE, offset: 0 }),
      series: Object.fromEntries(series),
      platforms: Object.fromEntries(platforms),
      subscription: {
        billingEnabled,
        subscription: billingEnabled
          ? subscription && { planName: plan.name, status: subscription.status, currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null, cancelAtPeriodEnd: subscription.cancelAtPeriodEnd }
          : { planName: plan.name, status: "active", currentPeriodEnd: null, cancelAtPeriodEnd: false },
      },
      tokens: (await listApiTokens(ctx.db, user.id)).map((t) => ({ ...t, createdAt: t.createdAt.toISOString(), lastUsedAt: t.lastUsedAt?.toISOString() ?? null })),
      publicUrl: ctx.config.publicUrl,
      accountEmail: user.email,
    };
  };

  const editorProps = async (user: User, link: LinkView | null) => ({
    mode: link ? ("edit" as const) : ("create" as const),
    link: link && {
      linkSlug: link.linkSlug,
      targetUrl: link.targetUrl,
      title: link.title,
      description: link.description,
      imageUrl: link.imageUrl,
      imageSource: link.imageSource,
      currentShortUrl: link.currentShortUrl,
      version: link.version,
      focalX: link.focalX,
      focalY: link.focalY,
      images: link.images,
      variants: link.variants,
    },
    sourceImage: link?.sourceImage ?? null,
    customSlugAllowed: (await entitlementFor(ctx.db, billingEnabled, user.id)).plan.customSlugs,
    userSlug: user.userSlug,
    publicUrl: ctx.config.publicUrl,
    autoFill: ctx.config.fetch.enabled,
  });

  return new Elysia()
    .use(authPlugin(ctx))
    .get("/", async ({ viewer, cookie }) => page(LandingPage, await plansFor(viewer), "Custom link previews", viewer?.user ?? null, cookie))
    .get("/pricing", async ({ viewer, cookie }) => page(PricingPage, await plansFor(viewer), "Pricing", viewer?.user ?? null, cookie))
    .get("/about", ({ viewer, cookie }) => page(PlaceholderPage, { title: "About" }, "About", viewer?.user ?? null, cookie))
    .get("/privacy", ({ viewer, cookie }) => page(PrivacyPage, { viewRetentionDays: ctx.config.viewRetentionMs / 86_400_000 }, "Privacy", viewer?.user ?? null, cookie))
    .get("/terms", ({ viewer, cookie }) => page(PlaceholderPage, { title: "Terms" }, "Terms", viewer?.user ?? null, cookie))
    .get("/contact", ({ viewer, cookie }) =>
      page(ContactPage, { contactFormUrl: ctx.config.contactFormUrl, socialUrl: ctx.config.socialUrl }, "Contact", viewer?.user ?? null, cookie),
    )
    .get("/admin", async ({ viewer, cookie, query, redirect }) => {
      const guarded = await subscribed(ctx, viewer, cookie);
      if (!guarded.user) return redirect(guarded.redirectTo, 302);
      const tab = query.tab === "subscription" ? "subscription" : "links";
      return page(DashboardPage, await dashboard(guarded.user, tab, Number.parseInt(String(query.page ?? "1"), 10) || 1), "Dashboard", guarded.user, cookie);
    })
    .get("/admin/link/new", async ({ viewer, cookie, redirect }) => {
      const guarded = await subscribed(ctx, viewer, cookie);
      if (!guarded.user) return redirect(guarded.redirectTo, 302);
      return page(LinkEditorPage, await editorProps(guarded.user, null), "Create New Link", guarded.user, cookie);
    })
    .get("/admin/link/edit/:linkSlug", async ({ viewer, cookie, params, redirect }) => {
      const guarded = await subscribed(ctx, viewer, cookie);
      if (!guarded.user) return redirect(guarded.redirectTo, 302);
      let link: LinkView;
      try {
        link = await getLinkBySlug(links, guarded.user, params.linkSlug);
      } catch {
        return page(LinkNotFoundPage, {}, "Link Not Found", guarded.user, cookie, 404);
      }
      return page(LinkEditorPage, await editorProps(guarded.user, link), "Edit Link", guarded.user, cookie);
    });
}
