-- One rollup table instead of three (link_counters, view_days, view_platforms), rebuilt from the views
-- themselves, with the mark of the last view it counts; and each User-Agent stored once. Together they cut
-- what counting a view writes by more than half (docs/decisions/0001). WITHOUT ROWID is hand-written:
-- drizzle cannot declare it.
CREATE TABLE `user_agents` (
	`id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_agents_text_unique` ON `user_agents` (`text`);--> statement-breakpoint
CREATE TABLE `view_rollup_mark` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_view_id` integer NOT NULL,
	CONSTRAINT "view_rollup_mark_one_row" CHECK("view_rollup_mark"."id" = 1)
);
--> statement-breakpoint
INSERT INTO `view_rollup_mark` (`id`, `last_view_id`) SELECT 1, coalesce(max(`id`), 0) FROM `views`;--> statement-breakpoint
CREATE TABLE `view_rollups` (
	`link_id` integer NOT NULL,
	`day` text NOT NULL,
	`platform` text NOT NULL,
	`human` integer DEFAULT 0 NOT NULL,
	`bot` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `day`, `platform`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `view_rollups` (`link_id`, `day`, `platform`, `human`, `bot`)
	SELECT `link_id`, strftime('%Y-%m-%d', `timestamp` / 1000, 'unixepoch'), coalesce(`platform`, ''), sum(`is_bot` = 0), sum(`is_bot`)
	FROM `views` GROUP BY 1, 2, 3;--> statement-breakpoint
DROP TABLE `link_counters`;--> statement-breakpoint
DROP TABLE `view_days`;--> statement-breakpoint
DROP TABLE `view_platforms`;--> statement-breakpoint
ALTER TABLE `views` ADD `user_agent_id` integer REFERENCES user_agents(id);--> statement-breakpoint
INSERT INTO `user_agents` (`text`) SELECT DISTINCT `user_agent` FROM `views` WHERE `user_agent` IS NOT NULL;--> statement-breakpoint
UPDATE `views` SET `user_agent_id` = (SELECT `id` FROM `user_agents` WHERE `text` = `views`.`user_agent`) WHERE `user_agent` IS NOT NULL;--> statement-breakpoint
ALTER TABLE `views` DROP COLUMN `user_agent`;
