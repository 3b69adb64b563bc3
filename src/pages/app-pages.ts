// What the signed-in app's pages show (/admin and the link editor), from the domains' services and the viewer
// resolved for the request (src/pages/viewer.ts).
import { listApiTokens } from "../auth/api-tokens.ts";
import { presentListed, type PresentedLink } from "../links/present.ts";
import { countLinks, listLinkPage, type LinkSort } from "../links/list-page.ts";
import { listDeletedLinks } from "../links/list-deleted.ts";
import { linkVerificationCounts } from "../links/fetches.ts";
import { linkPlatformCounts, linkStats } from "../links/stats.ts";
import type { DashboardProps } from "./dashboard.tsx";
import type { PageDeps } from "./deps.ts";
import type { PageViewer } from "./viewer.ts";
import type { ApiTokenJson } from "../auth/wire.ts";
import type { SubscriptionCardProps } from "../../islands/SubscriptionCard.tsx";
import type { LinkFormProps } from "../../islands/LinkForm.tsx";
import type { OldAddressesProps } from "../../islands/OldAddresses.tsx";
import type { QrStyleEditorProps } from "../../islands/QrStyleEditor.tsx";
import type { EarlierAddress } from "../links/old-addresses.ts";

/** A link as the editor is given it: with its earlier addresses (docs/decisions/0047). */
type EditedLink = PresentedLink & { oldAddresses?: EarlierAddress[] };

// Rendering a link row is the dashboard's main cost: a page of them keeps it cheap at any link count.
const DASHBOARD_PAGE_SIZE = 20;

/** What the dashboard's links tab is asked for: a page number, a search and an order (src/pages/routes.ts reads them). */
export type DashboardQuery = { page: number; q: string; sort: LinkSort };

export async function dashboardProps(
  deps: PageDeps,
  viewer: PageViewer,
  tab: DashboardProps["tab"],
  query: DashboardQuery,
): Promise<DashboardProps> {
  const { links } = deps;
  const {
    workspace,
    entitlement: { plan },
  } = viewer;
  const stats = await linkStats(links, workspace);
  const found = query.q ? await countLinks(links, workspace, query.q) : stats.totalLinks;
  const pages = Math.max(1, Math.ceil(found / DASHBOARD_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pages);
  const shown =
    tab === "links"
      ? (
          await listLinkPage(
            links,
            workspace,
            { limit: DASHBOARD_PAGE_SIZE, offset: (page - 1) * DASHBOARD_PAGE_SIZE, q: query.q, sort: query.sort },
            presentListed,
          )
        ).links
      : [];
  const platforms =
    shown.length > 0
      ? await linkPlatformCounts(
          links,
          workspace,
          shown.map((l) => l.id),
        )
      : new Map();
  // Each platform's verified and unverified fetches beside its count (docs/decisions/0066).
  const verification = await linkVerificationCounts(
    links,
    workspace,
    shown.map((l) => l.id),
  );
  const platformsWithVerification = [...platforms].map(([linkId, rows]) => [
    linkId,
    rows.map((row: { platform: string; count: number }) => ({
      ...row,
      ...(verification.get(linkId)?.get(row.platform) ?? { verified: 0, unverified: 0, unverifiable: 0 }),
    })),
  ]);
  return {
    tab,
    now: deps.clock.now(),
    used: stats.totalLinks,
    quota: plan.linkQuota,
    stats,
    links: shown,
    page,
    pages,
    found,
    query: { q: query.q, sort: query.sort },
    deletedLinks: tab === "links" ? await listDeletedLinks(links, workspace, DASHBOARD_PAGE_SIZE) : [],
    platforms: Object.fromEntries(platformsWithVerification),
    subscription: subscriptionCardProps(deps.billingEnabled, viewer),
  };
}

/** The subscription card (the dashboard's Subscription tab, workspace settings' Billing) for the acting workspace. */
export const subscriptionCardProps = (
  billingEnabled: boolean,
  { entitlement: { plan, subscription } }: PageViewer,
): SubscriptionCardProps => ({
  billingEnabled,
  subscription: billingEnabled
    ? subscription && {
        planName: plan.name,
        status: subscription.status,
        currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      }
    : { planName: plan.name, status: "active", currentPeriodEnd: null, cancelAtPeriodEnd: false },
});

/** The workspace's API tokens as the tokens section shows them (never a secret). */
export const workspaceTokens = async (deps: PageDeps, workspaceId: number): Promise<ApiTokenJson[]> =>
  (await listApiTokens(deps.db, workspaceId)).map((t) => ({
    ...t,
    expiresAt: t.expiresAt?.toISOString() ?? null,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  }));

/** `qrDefault`: the workspace's default QR style and logo (src/links/qr-style.ts), for an edited link's QR section. */
export const editorProps = (
  deps: PageDeps,
  { user, entitlement }: PageViewer,
  link: EditedLink | null,
  domains: LinkFormProps["domains"],
  qrDefault?: Pick<QrStyleEditorProps, "logo"> & { style: QrStyleEditorProps["defaultStyle"] },
): LinkFormProps & { earlier?: OldAddressesProps; qr?: QrStyleEditorProps } => ({
  mode: link ? "edit" : "create",
  link: link && {
    id: link.id,
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
    expiresAt: link.expiresAt?.toISOString() ?? null,
    maxClicks: link.maxClicks,
    visitsUsed: link.visitsUsed,
    expiredUrl: link.expiredUrl,
    hasPassword: link.hasPassword,
    rules: link.rules,
    domain: link.domain,
    status: link.status,
    disabledReason: link.disabledReason,
  },
  sourceImage: link?.sourceImage ?? null,
  customSlugAllowed: entitlement.plan.customSlugs,
  userSlug: user.userSlug,
  publicUrl: deps.config.publicUrl,
  autoFill: deps.config.fetch.enabled,
  domains,
  qr:
    link && qrDefault
      ? {
          link: {
            id: link.id,
            linkSlug: link.linkSlug,
            title: link.title,
            description: link.description,
            targetUrl: link.targetUrl,
            qrStyle: link.qrStyle,
          },
          defaultStyle: qrDefault.style,
          logo: qrDefault.logo,
        }
      : undefined,
  earlier: link?.oldAddresses && {
    linkId: link.id,
    addresses: link.oldAddresses.map((address) => ({ ...address, movedAt: address.movedAt.toISOString() })),
  },
});
