// Every migration, embedded as text so that a compiled binary carries them.
// Written by hand, never renumbered (docs/migrations.md); tests/unit/migration-index.test.ts checks this list against the files.
import init from "./0000_init.sql" with { type: "text" };
import rollupsWithoutRowid from "./0001_rollups_without_rowid.sql" with { type: "text" };
import rollupsAndUserAgents from "./0002_rollups_and_user_agents.sql" with { type: "text" };
import imageSourceSize from "./0003_image_source_size.sql" with { type: "text" };
import cardUpdatedAndLastFetch from "./0004_card_updated_and_last_fetch.sql" with { type: "text" };
import linkVersions from "./0005_link_versions.sql" with { type: "text" };
import cardVariants from "./0006_card_variants.sql" with { type: "text" };
import audience from "./0007_audience.sql" with { type: "text" };
import accountDeletion from "./0008_account_deletion.sql" with { type: "text" };
import retiredUserSlugs from "./0009_retired_user_slugs.sql" with { type: "text" };
import sessionUser from "./0010_session_user.sql" with { type: "text" };
import customDomains from "./0011_custom_domains.sql" with { type: "text" };
import trustAndSafety from "./0012_trust_and_safety.sql" with { type: "text" };
import webhooks from "./0013_webhooks.sql" with { type: "text" };
import viewBatches from "./0014_view_batches.sql" with { type: "text" };
import linkRules from "./0015_link_rules.sql" with { type: "text" };
import linkSearch from "./0016_link_search.sql" with { type: "text" };
import referrers from "./0017_referrers.sql" with { type: "text" };
import clickCounts from "./0018_click_counts.sql" with { type: "text" };
import healthFailedUrl from "./0020_health_failed_url.sql" with { type: "text" };
import destinations from "./0022_destinations.sql" with { type: "text" };
import domainClaims from "./0023_domain_claims.sql" with { type: "text" };
import webhookPause from "./0024_webhook_pause.sql" with { type: "text" };
import trustedUsers from "./0025_trusted_users.sql" with { type: "text" };
import linkOldAddresses from "./0026_link_old_addresses.sql" with { type: "text" };
import domainAppLinks from "./0027_domain_app_links.sql" with { type: "text" };
import workspaces from "./0028_workspaces.sql" with { type: "text" };
import invitesAndTokenScopes from "./0030_invites_and_token_scopes.sql" with { type: "text" };
import crawlerFetches from "./0031_crawler_fetches.sql" with { type: "text" };
import qrStyles from "./0032_qr_styles.sql" with { type: "text" };
import auditEvents from "./0033_audit_events.sql" with { type: "text" };
import workspaceBilling from "./0034_workspace_billing.sql" with { type: "text" };

export const migrations: ReadonlyArray<{ name: string; sql: string }> = [
  { name: "0000_init", sql: init },
  { name: "0001_rollups_without_rowid", sql: rollupsWithoutRowid },
  { name: "0002_rollups_and_user_agents", sql: rollupsAndUserAgents },
  { name: "0003_image_source_size", sql: imageSourceSize },
  { name: "0004_card_updated_and_last_fetch", sql: cardUpdatedAndLastFetch },
  { name: "0005_link_versions", sql: linkVersions },
  { name: "0006_card_variants", sql: cardVariants },
  { name: "0007_audience", sql: audience },
  { name: "0008_account_deletion", sql: accountDeletion },
  { name: "0009_retired_user_slugs", sql: retiredUserSlugs },
  { name: "0010_session_user", sql: sessionUser },
  { name: "0011_custom_domains", sql: customDomains },
  { name: "0012_trust_and_safety", sql: trustAndSafety },
  { name: "0013_webhooks", sql: webhooks },
  { name: "0014_view_batches", sql: viewBatches },
  { name: "0015_link_rules", sql: linkRules },
  { name: "0016_link_search", sql: linkSearch },
  { name: "0017_referrers", sql: referrers },
  { name: "0018_click_counts", sql: clickCounts },
  { name: "0020_health_failed_url", sql: healthFailedUrl },
  { name: "0022_destinations", sql: destinations },
  { name: "0023_domain_claims", sql: domainClaims },
  { name: "0024_webhook_pause", sql: webhookPause },
  { name: "0025_trusted_users", sql: trustedUsers },
  { name: "0026_link_old_addresses", sql: linkOldAddresses },
  { name: "0027_domain_app_links", sql: domainAppLinks },
  { name: "0028_workspaces", sql: workspaces },
  { name: "0030_invites_and_token_scopes", sql: invitesAndTokenScopes },
  { name: "0031_crawler_fetches", sql: crawlerFetches },
  { name: "0032_qr_styles", sql: qrStyles },
  { name: "0033_audit_events", sql: auditEvents },
  { name: "0034_workspace_billing", sql: workspaceBilling },
];
