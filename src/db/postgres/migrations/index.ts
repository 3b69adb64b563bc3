// Every PostgreSQL migration, embedded as text so that a compiled binary carries them.
// Written by hand, never renumbered (docs/migrations.md); tests/unit/migration-index.test.ts checks this list against the files.
import init from "./0000_init.sql" with { type: "text" };
import imageSourceSize from "./0001_image_source_size.sql" with { type: "text" };
import cardUpdatedAndLastFetch from "./0002_card_updated_and_last_fetch.sql" with { type: "text" };
import linkVersions from "./0003_link_versions.sql" with { type: "text" };
import cardVariants from "./0004_card_variants.sql" with { type: "text" };
import audience from "./0005_audience.sql" with { type: "text" };
import accountDeletion from "./0006_account_deletion.sql" with { type: "text" };
import retiredUserSlugs from "./0007_retired_user_slugs.sql" with { type: "text" };
import sessionUser from "./0008_session_user.sql" with { type: "text" };
import customDomains from "./0009_custom_domains.sql" with { type: "text" };
import trustAndSafety from "./0010_trust_and_safety.sql" with { type: "text" };
import webhooks from "./0011_webhooks.sql" with { type: "text" };
import viewBatches from "./0012_view_batches.sql" with { type: "text" };
import linkRules from "./0013_link_rules.sql" with { type: "text" };
import linkSearch from "./0014_link_search.sql" with { type: "text" };
import referrers from "./0015_referrers.sql" with { type: "text" };
import clickCounts from "./0016_click_counts.sql" with { type: "text" };
import healthFailedUrl from "./0018_health_failed_url.sql" with { type: "text" };
import destinations from "./0020_destinations.sql" with { type: "text" };
import domainClaims from "./0021_domain_claims.sql" with { type: "text" };
import webhookPause from "./0022_webhook_pause.sql" with { type: "text" };
import trustedUsers from "./0023_trusted_users.sql" with { type: "text" };
import linkOldAddresses from "./0024_link_old_addresses.sql" with { type: "text" };
import domainAppLinks from "./0025_domain_app_links.sql" with { type: "text" };
import workspaces from "./0026_workspaces.sql" with { type: "text" };
import invitesAndTokenScopes from "./0028_invites_and_token_scopes.sql" with { type: "text" };
import crawlerFetches from "./0029_crawler_fetches.sql" with { type: "text" };
import qrStyles from "./0030_qr_styles.sql" with { type: "text" };
import auditEvents from "./0031_audit_events.sql" with { type: "text" };
import workspaceBilling from "./0032_workspace_billing.sql" with { type: "text" };

export const migrations: ReadonlyArray<{ name: string; sql: string }> = [
  { name: "0000_init", sql: init },
  { name: "0001_image_source_size", sql: imageSourceSize },
  { name: "0002_card_updated_and_last_fetch", sql: cardUpdatedAndLastFetch },
  { name: "0003_link_versions", sql: linkVersions },
  { name: "0004_card_variants", sql: cardVariants },
  { name: "0005_audience", sql: audience },
  { name: "0006_account_deletion", sql: accountDeletion },
  { name: "0007_retired_user_slugs", sql: retiredUserSlugs },
  { name: "0008_session_user", sql: sessionUser },
  { name: "0009_custom_domains", sql: customDomains },
  { name: "0010_trust_and_safety", sql: trustAndSafety },
  { name: "0011_webhooks", sql: webhooks },
  { name: "0012_view_batches", sql: viewBatches },
  { name: "0013_link_rules", sql: linkRules },
  { name: "0014_link_search", sql: linkSearch },
  { name: "0015_referrers", sql: referrers },
  { name: "0016_click_counts", sql: clickCounts },
  { name: "0018_health_failed_url", sql: healthFailedUrl },
  { name: "0020_destinations", sql: destinations },
  { name: "0021_domain_claims", sql: domainClaims },
  { name: "0022_webhook_pause", sql: webhookPause },
  { name: "0023_trusted_users", sql: trustedUsers },
  { name: "0024_link_old_addresses", sql: linkOldAddresses },
  { name: "0025_domain_app_links", sql: domainAppLinks },
  { name: "0026_workspaces", sql: workspaces },
  { name: "0028_invites_and_token_scopes", sql: invitesAndTokenScopes },
  { name: "0029_crawler_fetches", sql: crawlerFetches },
  { name: "0030_qr_styles", sql: qrStyles },
  { name: "0031_audit_events", sql: auditEvents },
  { name: "0032_workspace_billing", sql: workspaceBilling },
];
