-- Every destination passes the same checks, one spelling of a host, a disable stays with its address
-- (docs/decisions/0042). The per-host index of the addresses besides a link's target: the existing rules' and
-- domains' addresses are copied here, and targets whose host ends in a dot are marked (target_domain null); the
-- first feed refresh or host block gives both their canonical spelling and registrable domain (tldts, in code).
CREATE TABLE `destinations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer,
	`domain_id` integer,
	`field` text NOT NULL,
	`url` text NOT NULL,
	`target_domain` text,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "destinations_owner" CHECK(("destinations"."link_id" is null) <> ("destinations"."domain_id" is null))
);
--> statement-breakpoint
CREATE INDEX `destinations_target_domain_idx` ON `destinations` (`target_domain`);--> statement-breakpoint
CREATE INDEX `destinations_link_idx` ON `destinations` (`link_id`);--> statement-breakpoint
CREATE INDEX `destinations_domain_idx` ON `destinations` (`domain_id`);--> statement-breakpoint
CREATE INDEX `links_disabled_address_idx` ON `links` (`user_id`,`link_slug`) WHERE "links"."deleted" = 1 and "links"."status" = 'disabled';--> statement-breakpoint
INSERT INTO `destinations` (`link_id`, `field`, `url`)
	SELECT `link_id`, 'rules.' || j.key || '.targetUrl', json_extract(j.value, '$.targetUrl')
	FROM `link_rules`, json_each(`link_rules`.`go_rules`, '$.rules') AS j
	WHERE `go_rules` IS NOT NULL AND json_extract(j.value, '$.targetUrl') IS NOT NULL;--> statement-breakpoint
INSERT INTO `destinations` (`link_id`, `field`, `url`)
	SELECT `link_id`, 'expiredUrl', json_extract(`go_rules`, '$.expiredUrl') FROM `link_rules` WHERE json_extract(`go_rules`, '$.expiredUrl') IS NOT NULL;--> statement-breakpoint
INSERT INTO `destinations` (`domain_id`, `field`, `url`) SELECT `id`, 'rootUrl', `root_url` FROM `domains` WHERE `root_url` IS NOT NULL;--> statement-breakpoint
INSERT INTO `destinations` (`domain_id`, `field`, `url`) SELECT `id`, 'notFoundUrl', `not_found_url` FROM `domains` WHERE `not_found_url` IS NOT NULL;--> statement-breakpoint
-- The host is what lies between "://" and the next "/" (a stored target is a parsed URL's href), its port trimmed.
UPDATE `links` SET `target_domain` = NULL
	WHERE rtrim(substr(substr(`target_url`, instr(`target_url`, '://') + 3), 1, instr(substr(`target_url`, instr(`target_url`, '://') + 3), '/') - 1), '0123456789:') LIKE '%.';
