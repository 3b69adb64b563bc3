-- Each crawler fetch on record (the last 1,000 per link, 90 days) and the crawler views per link, day and platform
-- by verification (docs/decisions/0066), both written by the view writer in each batch's transaction.
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
CREATE TABLE `crawler_fetch_counts` (
	`link_id` integer NOT NULL,
	`day` text NOT NULL,
	`platform` text NOT NULL,
	`verified` integer DEFAULT 0 NOT NULL,
	`unverified` integer DEFAULT 0 NOT NULL,
	`unverifiable` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `day`, `platform`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
