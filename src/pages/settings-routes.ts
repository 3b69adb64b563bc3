// Workspace settings (/admin/workspace…) and account settings (/account…): one place each, one navigation each
// (src/pages/settings-nav.tsx, docs/workspaces.md). The page guard knows the viewer's role in the acting workspace;
// what the role may not change is shown without forms. The old places redirect here, so bookmarks keep working.
import { Elysia } from "elysia";
import { createElement, type ReactElement } from "react";
import { listDomains } from "../domains/queries.ts";
import { takeFlash } from "../http/flash.ts";
import { listMembers } from "../members/members.ts";
import { pendingInvites } from "../members/pending-invites.ts";
import { listEndpoints } from "../webhooks/list-endpoints.ts";
import { planHasWebhooks } from "../webhooks/model.ts";
import { auditPage } from "../workspaces/audit-list.ts";
import { AuditQuery } from "../workspaces/audit-wire.ts";
import { may, type Action } from "../workspaces/permissions.ts";
import { AuditLogSection } from "./audit-log.tsx";
import { DeleteAccountPage, ProfilePage, YourDataPage } from "./account-settings.tsx";
import { subscriptionCardProps, workspaceTokens } from "./app-pages.ts";
import type { PageDeps } from "./deps.ts";
import { DomainsPage } from "./domains.tsx";
import { pageGuards } from "./guards.ts";
import { WorkspaceSettings, type WorkspaceSection } from "./settings-nav.tsx";
import type { PageViewer } from "./viewer.ts";
import { displayName } from "./viewer.ts";
import { WebhooksPage } from "./webhooks.tsx";
import { BillingSection, GeneralSection, MembersSection, TokensSection } from "./workspace-settings.tsx";

type Cookie = Parameters<typeof takeFlash>[0];

/** A settings section the role may not read at all (a billing member's domains, say) says so instead. */
const NOT_FOR_YOUR_ROLE = "Your role in this workspace does not show this section.";

/** Rows on one page of the audit log section. */
const AUDIT_PAGE_ROWS = 50;

/** The page's ?cursor= (an "Older" link's); like the dashboard's ?page=, anything else starts from the newest. */
const auditCursor = (query: Record<string, string | undefined>) => {
  const parsed = AuditQuery.shape.cursor.safeParse(query.cursor);
  return parsed.success ? parsed.data : undefined;
};

/** An old place of a setting, sent on to its new one with the query (say ?workspace=) kept. */
const movedTo =
  (to: string) =>
  ({ request, redirect }: { request: Request; redirect: (url: string, status: 301) => Response }) =>
    redirect(`${to}${new URL(request.url).search}`, 301);

export function settingsRoutes(deps: PageDeps) {
  const { config } = deps;
  const publicUrl = config.publicUrl;

  const respond = (element: ReactElement, title: string, viewer: PageViewer, cookie: Cookie) =>
    deps.pages.response(element, { title, viewer, flash: takeFlash(cookie) });

  /** A workspace settings section, framed by its navigation; `read`: the action needed to see it at all. */
  const workspacePage =
    (
      section: WorkspaceSection,
      title: string,
      read: Action | null,
      body: (viewer: PageViewer) => Promise<ReactElement> | ReactElement,
    ) =>
    async ({ pageViewer, cookie }: { pageViewer: PageViewer; cookie: Cookie }) => {
      const content =
        read && !may(pageViewer.role, read)
          ? createElement("p", { className: "text-gray-700" }, NOT_FOR_YOUR_ROLE)
          : await body(pageViewer);
      const { slug, name } = pageViewer.workspace;
      return respond(
        createElement(WorkspaceSettings, { section, workspace: { slug, name }, children: content }),
        title,
        pageViewer,
        cookie,
      );
    };

  const guarded = { page: "subscribed" as const };
  const signedIn = { page: "signedIn" as const };
  return new Elysia()
    .use(pageGuards(deps.session, deps.billingEnabled))
    .get(
      "/admin/workspace",
      workspacePage("general", "Workspace settings", null, ({ user, workspace, role }) =>
        createElement(GeneralSection, {
          workspace: {
            id: workspace.id,
            slug: workspace.slug,
            name: workspace.name,
            personal: workspace.personalUserId !== null,
          },
          publicUrl,
          personalSlug: user.userSlug,
          actions: {
            rename: may(role, "workspace.write"),
            remove: may(role, "workspace.delete"),
            exportData: may(role, "workspace.export"),
          },
        }),
      ),
      guarded,
    )
    .get(
      "/admin/workspace/members",
      workspacePage("members", "Members and invites", null, async ({ user, workspace, role }) => {
        const manage = may(role, "members.write");
        const invites = manage ? await pendingInvites(deps.db, workspace.id, deps.clock.now()) : [];
        return createElement(MembersSection, {
          manage,
          workspaceId: workspace.id,
          selfId: user.id,
          members: await listMembers(deps.db, workspace.id),
          invites: invites.map((invite) => ({ ...invite, expiresAt: invite.expiresAt.toISOString() })),
        });
      }),
      guarded,
    )
    .get(
      "/admin/workspace/tokens",
      workspacePage("tokens", "API tokens", "settings.read", async ({ workspace, role }) =>
        createElement(TokensSection, {
          tokens: await workspaceTokens(deps, workspace.id),
          publicUrl,
          manage: may(role, "tokens.write"),
        }),
      ),
      guarded,
    )
    .get(
      "/admin/workspace/domains",
      workspacePage("domains", "Domains", "settings.read", async (viewer) =>
        createElement(DomainsPage, {
          domains: await listDomains(deps.domains, viewer.workspace),
          instanceHost: new URL(publicUrl).host,
          pointAt: deps.domains.routing,
          allowed: viewer.entitlement.plan.domains,
          manage: may(viewer.role, "domains.write"),
        }),
      ),
      guarded,
    )
    .get(
      "/admin/workspace/webhooks",
      workspacePage("webhooks", "Webhooks", "settings.read", async (viewer) =>
        createElement(WebhooksPage, {
          endpoints: await listEndpoints(deps.webhooks, viewer.workspace),
          allowed: planHasWebhooks(viewer.entitlement.plan.id),
          manage: may(viewer.role, "webhooks.write"),
        }),
      ),
      guarded,
    )
    .get(
      "/admin/workspace/billing",
      workspacePage("billing", "Billing", null, (viewer) =>
        createElement(BillingSection, {
          card: subscriptionCardProps(deps.billingEnabled, viewer),
          manage: may(viewer.role, "billing.write"),
        }),
      ),
      guarded,
    )
    .get(
      "/admin/workspace/audit",
      (context) =>
        workspacePage("audit", "Audit log", "audit.read", async ({ workspace }) =>
          createElement(AuditLogSection, {
            page: await auditPage(deps.db, workspace, AUDIT_PAGE_ROWS, auditCursor(context.query)),
            workspace: { id: workspace.id, slug: workspace.slug },
          }),
        )(context),
      guarded,
    )
    .get(
      "/account",
      ({ pageViewer, cookie }) =>
        respond(
          createElement(ProfilePage, {
            name: displayName(pageViewer.user),
            email: pageViewer.user.email,
            userSlug: pageViewer.user.userSlug,
            publicUrl,
          }),
          "Account settings",
          pageViewer,
          cookie,
        ),
      signedIn,
    )
    .get(
      "/account/data",
      ({ pageViewer, cookie }) => respond(createElement(YourDataPage), "Your data", pageViewer, cookie),
      signedIn,
    )
    .get(
      "/account/delete",
      ({ pageViewer, cookie }) =>
        respond(
          createElement(DeleteAccountPage, { email: pageViewer.user.email }),
          "Delete account",
          pageViewer,
          cookie,
        ),
      signedIn,
    )
    .get("/admin/domains", movedTo("/admin/workspace/domains"))
    .get("/admin/webhooks", movedTo("/admin/workspace/webhooks"));
}
