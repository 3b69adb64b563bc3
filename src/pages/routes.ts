// The pages: public ones (/, /pricing, /about, /privacy, /terms, /contact, /account-deleted, /docs/api, /login/:token,
// /invites/:token) and the
// signed-in app (/admin…, /payment-success); the settings are settings-routes.ts's. Each page resolves its viewer once (src/pages/viewer.ts).
import { Elysia } from "elysia";
import { createElement, type FunctionComponent } from "react";
import type { OpenApiDocument } from "../api-docs/openapi.ts";
import { PLANS } from "../plans/plans.ts";
import { confirmCheckout } from "../billing/confirm-checkout.ts";
import { AppError } from "../http/errors.ts";
import { takeFlash } from "../http/flash.ts";
import { getLinkBySlug } from "../links/queries.ts";
import { linkReport, parseRange } from "../links/report.ts";
import { ApiReferencePage, ApiReferenceSectionPage, apiReferenceSection } from "./api-reference.tsx";
import { NotFoundPage } from "./not-found.tsx";
import { dashboardProps, editorProps } from "./app-pages.ts";
import { linkFetches } from "../links/fetches.ts";
import type { PageDeps } from "./deps.ts";
import { DashboardPage } from "./dashboard.tsx";
import { isServed } from "../domains/model.ts";
import { listDomains } from "../domains/queries.ts";
import { pageGuards } from "./guards.ts";
import { settingsRoutes } from "./settings-routes.ts";
import { qrDefault } from "../links/qr-style.ts";
import { LinkEditorPage, LinkNotFoundPage } from "./link-editor.tsx";
import { LinkStatsPage, parseTable, reportCsv, reportCsvName } from "./link-stats.tsx";
import { PaymentSuccessPage } from "./payment-success.tsx";
import type { PlanListProps } from "./plan-list.tsx";
import { PrivacyPage } from "./privacy.tsx";
import { AccountDeletedPage, ContactPage, LandingPage, PlaceholderPage, PricingPage } from "./public.tsx";
import { InvitePage } from "./invite.tsx";
import { acceptInvite, openInvite } from "../members/accept-invite.ts";
import { LoginLinkPage } from "./sign-in.tsx";
import { resolvePageViewer, type PageViewer } from "./viewer.ts";

type Cookie = Parameters<typeof takeFlash>[0];

/** The crawler fetches the link's page shows (the API pages the rest). */
const TIMELINE_FETCHES = 20;

/** Only a missing link is "Link Not Found" (null); anything else (the database failing) is the error handler's 500. */
async function notFoundAsNull<T>(result: Promise<T>): Promise<T | null> {
  try {
    return await result;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** The dashboard's search as typed: control characters (a NUL: PostgreSQL refuses it) part words, as in the search
 * itself (links/list-page.ts). */
const searchText = (q: unknown) =>
  typeof q === "string"
    ? q
        .replace(/\p{Cc}+/gu, " ")
        .trim()
        .slice(0, 200)
    : "";

export function pageRoutes(deps: PageDeps, apiDocument: () => OpenApiDocument) {
  const { config } = deps;

  /** A page for whoever is asking, with the flash toast left by a redirect, if any. */
  const page = <P extends object>(
    component: FunctionComponent<P>,
    props: P,
    title: string,
    viewer: PageViewer | null,
    cookie: Cookie,
    status = 200,
  ) => deps.pages.response(createElement(component, props), { title, viewer, flash: takeFlash(cookie), status });

  /** The hostnames a link of the viewer's may be placed on. */
  const domainNames = async (viewer: PageViewer) =>
    (await listDomains(deps.domains, viewer.workspace)).map((domain) => ({
      hostname: domain.hostname,
      serving: isServed(domain.status),
    }));

  const plansFor = (viewer: PageViewer | null): PlanListProps => ({
    plans: PLANS,
    signedIn: viewer !== null,
    currentPlan: viewer?.entitlement.active ? viewer.entitlement.plan : null,
    businessCountry: config.businessCountry,
    billingEnabled: deps.billingEnabled,
  });

  return (
    new Elysia()
      .use(pageGuards(deps.session, deps.billingEnabled))
      .use(settingsRoutes(deps))
      .get("/", ({ pageViewer, cookie }) =>
        page(
          LandingPage,
          { ...plansFor(pageViewer), googleSignIn: config.google !== null },
          "Custom link previews",
          pageViewer,
          cookie,
        ),
      )
      .get("/pricing", ({ pageViewer, cookie }) =>
        page(PricingPage, plansFor(pageViewer), "Pricing", pageViewer, cookie),
      )
      .get("/about", ({ pageViewer, cookie }) => page(PlaceholderPage, { title: "About" }, "About", pageViewer, cookie))
      .get("/privacy", ({ pageViewer, cookie }) =>
        page(PrivacyPage, { viewRetentionDays: config.viewRetentionMs / 86_400_000 }, "Privacy", pageViewer, cookie),
      )
      .get("/terms", ({ pageViewer, cookie }) => page(PlaceholderPage, { title: "Terms" }, "Terms", pageViewer, cookie))
      .get("/account-deleted", ({ pageViewer, cookie }) =>
        page(AccountDeletedPage, {}, "Account deleted", pageViewer, cookie),
      )
      .get("/contact", ({ pageViewer, cookie }) =>
        page(
          ContactPage,
          { contactFormUrl: config.contactFormUrl, socialUrl: config.socialUrl },
          "Contact",
          pageViewer,
          cookie,
        ),
      )
      .get("/docs/api", ({ pageViewer }) =>
        deps.pages.response(createElement(ApiReferencePage, { document: apiDocument() }), {
          title: "API reference",
          viewer: pageViewer,
        }),
      )
      .get("/docs/api/:section", ({ pageViewer, params }) => {
        const document = apiDocument();
        const section = apiReferenceSection(document, params.section);
        if (!section)
          return deps.pages.response(createElement(NotFoundPage), {
            title: "Page not found",
            status: 404,
            viewer: pageViewer,
          });
        return deps.pages.response(createElement(ApiReferenceSectionPage, { document, tag: section.tag }), {
          title: `API reference: ${section.tag ?? "Schemas"}`,
          viewer: pageViewer,
        });
      })
      .get("/login/:token", ({ params, pageViewer }) =>
        deps.pages.response(createElement(LoginLinkPage, { token: params.token }), {
          title: "Sign in",
          viewer: pageViewer,
        }),
      )
      .get("/invites/:token", async ({ params, pageViewer }) => {
        const found = await openInvite(deps.db, params.token, deps.clock.now());
        const invite = found && {
          email: found.invite.email,
          role: found.invite.role,
          workspaceName: found.workspace.name,
          inviter: found.inviterEmail,
        };
        const signIn = { byMail: config.mail !== null, byGoogle: config.google !== null };
        return deps.pages.response(
          createElement(InvitePage, { token: params.token, invite, viewer: pageViewer?.user ?? null, ...signIn }),
          {
            title: invite ? `Join ${invite.workspaceName}` : "Invite not valid",
            viewer: pageViewer,
            status: invite ? 200 : 404,
          },
        );
      })
      // The accept page's form (src/pages/invite.tsx): signed out, back to the page, which says how to sign in.
      .post("/invites/:token", async ({ params, pageViewer, redirect }) => {
        if (!pageViewer) return redirect(`/invites/${encodeURIComponent(params.token)}`, 303);
        const { workspace } = await acceptInvite(deps.members, pageViewer.user, params.token);
        return redirect(`/admin?workspace=${encodeURIComponent(workspace.slug)}`, 303);
      })
      .get(
        "/admin",
        async ({ pageViewer, cookie, query }) => {
          const tab = query.tab === "subscription" ? "subscription" : "links";
          const requestedPage = Number.parseInt(String(query.page ?? "1"), 10) || 1;
          const search = {
            page: requestedPage,
            q: searchText(query.q),
            sort: query.sort === "views" ? ("views" as const) : ("newest" as const),
          };
          return page(
            DashboardPage,
            await dashboardProps(deps, pageViewer, tab, search),
            "Dashboard",
            pageViewer,
            cookie,
          );
        },
        { page: "subscribed" },
      )
      .get(
        "/admin/link/new",
        async ({ pageViewer, cookie }) =>
          page(
            LinkEditorPage,
            editorProps(deps, pageViewer, null, await domainNames(pageViewer)),
            "Create New Link",
            pageViewer,
            cookie,
          ),
        { page: "subscribed" },
      )
      .get(
        "/admin/link/edit/:linkSlug",
        async ({ pageViewer, cookie, params }) => {
          const link = await notFoundAsNull(getLinkBySlug(deps.links, pageViewer.workspace, params.linkSlug));
          if (!link) return page(LinkNotFoundPage, {}, "Link Not Found", pageViewer, cookie, 404);
          // The timeline's newest fetches (docs/decisions/0066).
          const { items: fetches } = await linkFetches(
            deps.links,
            pageViewer.workspace,
            link.id,
            TIMELINE_FETCHES,
            undefined,
          );
          return page(
            LinkEditorPage,
            {
              ...editorProps(
                deps,
                pageViewer,
                link,
                await domainNames(pageViewer),
                await qrDefault(deps.links, pageViewer.workspace),
              ),
              fetches,
            },
            "Edit Link",
            pageViewer,
            cookie,
          );
        },
        { page: "subscribed" },
      )
      .get(
        "/admin/link/stats/:linkSlug",
        async ({ pageViewer, cookie, params, query }) => {
          const report = await notFoundAsNull(
            linkReport(deps.links, pageViewer.workspace, params.linkSlug, parseRange(query.range), deps.clock.now()),
          );
          if (!report) return page(LinkNotFoundPage, {}, "Link Not Found", pageViewer, cookie, 404);
          return page(LinkStatsPage, { report }, `Statistics: ${report.link.title}`, pageViewer, cookie);
        },
        { page: "subscribed" },
      )
      // The CSV of one of the statistics page's tables, for the same range.
      .get(
        "/admin/link/stats/:linkSlug/csv",
        async ({ pageViewer, cookie, params, query, set }) => {
          const report = await notFoundAsNull(
            linkReport(deps.links, pageViewer.workspace, params.linkSlug, parseRange(query.range), deps.clock.now()),
          );
          if (!report) return page(LinkNotFoundPage, {}, "Link Not Found", pageViewer, cookie, 404);
          const table = parseTable(query.table);
          set.headers["content-type"] = "text/csv; charset=utf-8";
          set.headers["content-disposition"] = `attachment; filename="${reportCsvName(report, table)}"`;
          set.headers["cache-control"] = "private, no-store";
          return reportCsv(report, table);
        },
        { page: "subscribed" },
      )
      .get(
        "/payment-success",
        async ({ pageViewer, query }) => {
          const sessionId = typeof query.session_id === "string" ? query.session_id : null;
          let viewer = pageViewer;
          if (sessionId && deps.billing.stripe) {
            await confirmCheckout(deps.billing, viewer, sessionId).catch((error) =>
              deps.log.error("payment-success: could not confirm the checkout", error),
            );
            // The top bar shows the plan the checkout just activated.
            viewer = (await resolvePageViewer(deps.db, deps.billingEnabled, viewer, deps.clock.now()))!;
          }
          return deps.pages.response(createElement(PaymentSuccessPage), { title: "Payment successful", viewer });
        },
        { page: "signedIn" },
      )
  );
}
