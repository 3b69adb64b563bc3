-- A link's rules and health (src/rules/), one row per link that has either; a link without rules has no row.
CREATE TABLE `link_rules` (
	`link_id` integer PRIMARY KEY NOT NULL,
	`go_rules` text,
	`clicks` integer DEFAULT 0 NOT NULL,
	`health_status` text DEFAULT 'unchecked' NOT NULL,
	`health_checked_at` integer,
	`health_http_status` integer,
	`health_final_url` text,
	`health_failures` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "link_rules_go_rules_len" CHECK(length("link_rules"."go_rules") <= 16384)
);
