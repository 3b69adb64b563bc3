-- Each crawler fetch on record (the last 1,000 per link, 90 days), written by the view writer in each batch's
-- transaction, and each crawler view's verification by network, on its row and counted in the rollups
-- (docs/decisions/0066). Views and rollups from before count as neither verified nor unverified.
CREATE TABLE `crawler_fetches` (
	`id` integer PRIMARY KEY NOT NULL,
	`link_id` integer NOT NULL,
	`at` integer NOT NULL,
	`platform` text NOT NULL,
	`verification` text NOT NULL,
	`version` integer NOT NULL,
	`rendition` text,
	`status` integer NOT NULL,
	`bytes` integer NOT NULL,
	`ms` real NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `crawler_fetches_link_idx` ON `crawler_fetches` (`link_id`, `id`);
--> statement-breakpoint
CREATE INDEX `crawler_fetches_at_idx` ON `crawler_fetches` (`at`);
--> statement-breakpoint
ALTER TABLE `views` ADD `verification` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `verified` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `unverified` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `unverifiable` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Each batch's fetches, moved into crawler_fetches in link order at the writer's next rollup fold.
CREATE TABLE `crawler_fetch_queue` (
	`id` integer PRIMARY KEY NOT NULL,
	`link_id` integer NOT NULL,
	`at` integer NOT NULL,
	`platform` text NOT NULL,
	`verification` text NOT NULL,
	`version` integer NOT NULL,
	`rendition` text,
	`status` integer NOT NULL,
	`bytes` integer NOT NULL,
	`ms` real NOT NULL
);
--> statement-breakpoint
-- Each platform's first fetch of each version of a link: its row is added with the preview.fetched event.
CREATE TABLE `crawler_first_fetches` (
	`link_id` integer NOT NULL,
	`version` integer NOT NULL,
	`platform` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`link_id`, `version`, `platform`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
