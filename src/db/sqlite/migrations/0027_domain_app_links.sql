-- A custom domain's app-link documents, served byte-exact at /.well-known/ on its host (docs/decisions/0060):
-- Apple's app-site-association and Android's asset links, as their owner wrote them (at most 128 KB each).
-- The host map holds them, so the trigger that bumps host_map_version watches them too.
ALTER TABLE `domains` ADD `apple_app_site_association` text CHECK (`apple_app_site_association` IS NULL OR length(CAST(`apple_app_site_association` AS BLOB)) <= 131072);--> statement-breakpoint
ALTER TABLE `domains` ADD `asset_links` text CHECK (`asset_links` IS NULL OR length(CAST(`asset_links` AS BLOB)) <= 131072);--> statement-breakpoint
DROP TRIGGER `domains_host_map_update`;--> statement-breakpoint
CREATE TRIGGER `domains_host_map_update` AFTER UPDATE ON `domains`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`hostname` IS NOT NEW.`hostname` OR OLD.`user_id` IS NOT NEW.`user_id`
  OR OLD.`root_url` IS NOT NEW.`root_url` OR OLD.`not_found_url` IS NOT NEW.`not_found_url`
  OR OLD.`apple_app_site_association` IS NOT NEW.`apple_app_site_association` OR OLD.`asset_links` IS NOT NEW.`asset_links`
BEGIN UPDATE `host_map_version` SET `version` = `version` + 1; END;
