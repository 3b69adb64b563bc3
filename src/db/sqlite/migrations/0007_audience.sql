-- view_visitors is WITHOUT ROWID (written by hand: drizzle cannot declare it): one b-tree per insert.
CREATE TABLE `view_visitors` (
	`day` text NOT NULL,
	`link_id` integer NOT NULL,
	`hash` integer NOT NULL,
	PRIMARY KEY(`day`, `link_id`, `hash`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `scans` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `unique_humans` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `views` ADD `scan` integer DEFAULT false NOT NULL;