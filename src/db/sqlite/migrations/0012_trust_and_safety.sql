-- Trust and safety (src/safety/): a link's status and why it was disabled, its target's registrable domain (what
-- feed entries are matched against by index; filled for older links by the first feed refresh), suspended
-- accounts, the feeds' and operators' entries, abuse reports and the operators' audit log.
ALTER TABLE `users` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `status` text DEFAULT 'active' NOT NULL CONSTRAINT "links_status" CHECK("status" in ('active', 'disabled'));--> statement-breakpoint
ALTER TABLE `links` ADD `disabled_reason` text;--> statement-breakpoint
ALTER TABLE `links` ADD `target_domain` text;--> statement-breakpoint
CREATE INDEX `links_target_domain_idx` ON `links` (`target_domain`);--> statement-breakpoint
CREATE TABLE `threat_entries` (
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	`domain` text NOT NULL,
	`added_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`source`, `kind`, `value`),
	CONSTRAINT "threat_entries_kind" CHECK("threat_entries"."kind" in ('url', 'host'))
);
--> statement-breakpoint
CREATE INDEX `threat_entries_domain_idx` ON `threat_entries` (`domain`);--> statement-breakpoint
CREATE TABLE `abuse_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer NOT NULL,
	`address` text NOT NULL,
	`reason` text NOT NULL,
	`details` text DEFAULT '' NOT NULL,
	`reporter_address` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`resolved_at` integer,
	`resolution` text,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "abuse_reports_details_len" CHECK(length("abuse_reports"."details") <= 2000)
);
--> statement-breakpoint
CREATE INDEX `abuse_reports_open_idx` ON `abuse_reports` (`resolved_at`, `id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`subject` text NOT NULL,
	`reason` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `threat_feeds` (
	`source` text PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL,
	`refreshed_at` integer,
	`entries` integer DEFAULT 0 NOT NULL,
	`error` text
);
