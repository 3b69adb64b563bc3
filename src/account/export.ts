// The user's copy of their data (GDPR Art. 15 and 20): one JSON document, and the links as CSV. Every query
// is scoped to the user's id.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";
import type { LinkDeps } from "../links/deps.ts";
import { listLinks } from "../links/queries.ts";
import { createdLinkQrStyles, personalQrDefault } from "../links/qr-style-queries.ts";
import { shortUrlOf } from "../links/url.ts";
import { presentRules, rulesColumns, type RulesRow } from "../rules/present.ts";
import type { Workspace } from "../workspaces/acting.ts";
import { csvRow } from "../http/csv.ts";
import { exportedDailyViews, exportedEndpoints } from "./export-parts.ts";
import { personalBilling } from "../workspaces/personal.ts";

const NO_RULES: RulesRow = {
  goRules: null,
  healthStatus: null,
  healthCheckedAt: null,
  healthHttpStatus: null,
  healthFinalUrl: null,
  healthFailedUrl: null,
  clicks: null,
};

/** GET /api/account/export */
export async function exportAccount(db: Db, publicUrl: string, user: User, now: number) {
  const {
    apiTokens,
    domains,
    linkRules,
    links,
    payments,
    referrerRollups,
    subscriptions,
    userAgents,
    userConsents,
    views,
    webhookEndpoints,
    workspaceMembers,
    workspaces,
  } = tablesOf(db);
  const ownLinks = eq(links.userId, user.id);
  const [
    consents,
    subscriptionRows,
    paymentRows,
    tokens,
    linkRows,
    rulesRows,
    rollups,
    rawViews,
    domainRows,
    endpoints,
    referrerRows,
    qrDefault,
    linkQrStyles,
    bill,
    memberships,
  ] = await Promise.all([
    db
      .select({
        termsAccepted: userConsents.termsAccepted,
        privacyAccepted: userConsents.privacyAccepted,
        acceptedAt: userConsents.acceptanceDate,
      })
      .from(userConsents)
      .where(eq(userConsents.userId, user.id))
      .orderBy(asc(userConsents.id)),
    db.select().from(subscriptions).where(eq(subscriptions.userId, user.id)).orderBy(asc(subscriptions.id)),
    db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(asc(payments.id)),
    db
      .select({ name: apiTokens.name, createdAt: apiTokens.createdAt, lastUsedAt: apiTokens.lastUsedAt })
      .from(apiTokens)
      .where(eq(apiTokens.userId, user.id))
      .orderBy(asc(apiTokens.id)),
    db.select().from(links).where(ownLinks).orderBy(asc(links.id)),
    db
      .select({ linkId: linkRules.linkId, ...rulesColumns(db) })
      .from(linkRules)
      .innerJoin(links, eq(links.id, linkRules.linkId))
      .where(ownLinks),
    exportedDailyViews(db, ownLinks),
    db
      .select({
        linkId: views.linkId,
        at: views.timestamp,
        address: views.ip,
        userAgent: userAgents.text,
        referrer: views.attribution,
        isBot: views.isBot,
        platform: views.platform,
      })
      .from(views)
      .leftJoin(userAgents, eq(userAgents.id, views.userAgentId))
      .where(eq(views.userId, user.id))
      .orderBy(asc(views.id)),
    db.select().from(domains).where(eq(domains.userId, user.id)).orderBy(asc(domains.id)),
    exportedEndpoints(db, eq(webhookEndpoints.userId, user.id)),
    db
      .select({
        linkId: referrerRollups.linkId,
        day: referrerRollups.day,
        host: referrerRollups.host,
        human: referrerRollups.human,
      })
      .from(referrerRollups)
      .innerJoin(links, eq(links.id, referrerRollups.linkId))
      .where(ownLinks)
      .orderBy(referrerRollups.linkId, referrerRollups.day, referrerRollups.host),
    personalQrDefault(db, user.id),
    createdLinkQrStyles(db, user.id),
    personalBilling(db, user.id),
    // The workspaces it belongs to (a team's own data is its owners' and admins' to export).
    db
      .select({ slug: workspaces.slug, name: workspaces.name, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(eq(workspaceMembers.userId, user.id))
      .orderBy(asc(workspaces.id)),
  ]);
  const rulesOf = new Map(rulesRows.map((row) => [row.linkId, row]));
  return {
    exportedAt: new Date(now),
    profile: {
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      profileImageUrl: user.profileImageUrl,
      userSlug: user.userSlug,
      stripeCustomerId: bill.stripeCustomerId,
      vat: bill.vatNumber
        ? { countryCode: bill.vatCountryCode, vatNumber: bill.vatNumber, companyName: bill.vatCompanyName }
        : null,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    consents,
    memberships,
    subscriptions: subscriptionRows.map(({ userId: _userId, stripeEventAt: _at, ...row }) => row),
    payments: paymentRows.map(({ userId: _userId, ...row }) => row),
    apiTokens: tokens,
    webhookEndpoints: endpoints,
    domains: domainRows.map(({ userId: _userId, ...row }) => row),
    // The default QR style, and the uploaded logo as the PNG it was kept as.
    qrStyle: {
      style: qrDefault.style,
      logo: qrDefault.logo && {
        width: qrDefault.logo.width,
        height: qrDefault.logo.height,
        png: `data:image/png;base64,${Buffer.from(qrDefault.logo.png).toString("base64")}`,
      },
    },
    links: linkRows.map(({ userId: _userId, ...row }) => {
      const domain = domainRows.find((candidate) => candidate.id === row.domainId)?.hostname ?? null;
      // Its rules and health as the API shows them: whether there is a password, never its hash.
      return {
        ...row,
        domain,
        shortUrl: shortUrlOf(publicUrl, user.userSlug, row.linkSlug, 1, domain),
        ...presentRules(rulesOf.get(row.id) ?? NO_RULES),
        qrStyle: linkQrStyles.get(row.id) ?? null,
      };
    }),
    dailyViews: rollups,
    // People per link, day and referrer host ('' none, '*' the hosts past the day's cap: src/db/referrer-buckets.ts).
    dailyReferrers: referrerRows,
    // The raw views still kept (VIEW_RETENTION_DAYS), addresses truncated as they were stored.
    views: rawViews,
  };
}

const CSV_HEADER = [
  "slug",
  "short URL",
  "target",
  "title",
  "description",
  "image URL",
  "created",
  "human views",
  "bot views",
];

/** GET /api/links/export.csv: the workspace's live links, newest first (what `linkprev links import` reads back). */
export async function linksCsv(deps: LinkDeps, workspace: Workspace): Promise<string> {
  const rows = await listLinks(deps, workspace, "live");
  return (
    csvRow(CSV_HEADER) +
    rows
      .map((link) =>
        csvRow([
          link.linkSlug,
          link.shortUrl,
          link.targetUrl,
          link.title,
          link.description,
          link.imageUrl,
          link.createdAt.toISOString(),
          link.viewsHuman,
          link.viewsBot,
        ]),
      )
      .join("")
  );
}

export const exportFileName = (kind: "json" | "csv", now: Date) =>
  `linkprev-${kind === "json" ? "export" : "links"}-${now.toISOString().slice(0, 10)}.${kind}`;
