-- The per-day and per-platform rollups are written on every view batch. As WITHOUT ROWID tables an upsert
-- touches one b-tree instead of two (measured: 13 µs → 10 µs per stored view). drizzle cannot declare this.
CREATE TABLE `view_days_new` (
	`link_id` integer NOT NULL,
	`day` text NOT NULL,
	`human` integer DEFAULT 0 NOT NULL,
	`bot` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `day`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `view_days_new` SELECT `link_id`, `day`, `human`, `bot` FROM `view_days`;
--> statement-breakpoint
DROP TABLE `view_days`;
--> statement-breakpoint
ALTER TABLE `view_days_new` RENAME TO `view_days`;
--> statement-breakpoint
CREATE TABLE `view_platforms_new` (
	`link_id` integer NOT NULL,
	`platform` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `platform`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `view_platforms_new` SELECT `link_id`, `platform`, `count` FROM `view_platforms`;
--> statement-breakpoint
DROP TABLE `view_platforms`;
--> statement-breakpoint
ALTER TABLE `view_platforms_new` RENAME TO `view_platforms`;
