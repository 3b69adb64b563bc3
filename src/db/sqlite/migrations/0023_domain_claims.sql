-- Claims of one hostname by several accounts no longer block each other while unverified; one account serves it
-- (docs/decisions/0044). host_map_version is bumped by triggers whenever the host map may have changed, by any
-- process (the CLI included): every node polls it (src/domains/host-map.ts).
DROP INDEX `domains_hostname_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `domains_served_hostname_unique` ON `domains` (`hostname`) WHERE "domains"."status" in ('verified', 'failing');--> statement-breakpoint
CREATE UNIQUE INDEX `domains_user_hostname_unique` ON `domains` (`user_id`,`hostname`);--> statement-breakpoint
CREATE TABLE `host_map_version` (
	`id` integer PRIMARY KEY DEFAULT 1 NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `host_map_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `domains_host_map_insert` AFTER INSERT ON `domains` BEGIN UPDATE `host_map_version` SET `version` = `version` + 1; END;--> statement-breakpoint
CREATE TRIGGER `domains_host_map_delete` AFTER DELETE ON `domains` BEGIN UPDATE `host_map_version` SET `version` = `version` + 1; END;--> statement-breakpoint
CREATE TRIGGER `domains_host_map_update` AFTER UPDATE ON `domains`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`hostname` IS NOT NEW.`hostname` OR OLD.`user_id` IS NOT NEW.`user_id`
  OR OLD.`root_url` IS NOT NEW.`root_url` OR OLD.`not_found_url` IS NOT NEW.`not_found_url`
BEGIN UPDATE `host_map_version` SET `version` = `version` + 1; END;--> statement-breakpoint
CREATE TRIGGER `users_host_map_update` AFTER UPDATE ON `users`
WHEN OLD.`suspended_at` IS NOT NEW.`suspended_at` OR OLD.`deleting_since` IS NOT NEW.`deleting_since` OR OLD.`user_slug` IS NOT NEW.`user_slug`
BEGIN UPDATE `host_map_version` SET `version` = `version` + 1; END;
