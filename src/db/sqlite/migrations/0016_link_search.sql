-- Each link's all-time counts in one row, kept from view_rollups by triggers in the same transaction as the
-- rollups: the dashboard's totals and "most viewed" read one row per link instead of every rollup row. Rollup rows
-- are only ever deleted with their link (account deletion), whose totals row goes by the foreign key: no delete
-- trigger, so that deletion takes no lock the view writer's triggers also take (a deadlock on PostgreSQL).
CREATE TABLE `link_totals` (
	`link_id` integer PRIMARY KEY NOT NULL,
	`human` integer DEFAULT 0 NOT NULL,
	`bot` integer DEFAULT 0 NOT NULL,
	`scans` integer DEFAULT 0 NOT NULL,
	`unique_humans` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `link_totals` (link_id, human, bot, scans, unique_humans)
SELECT link_id, sum(human), sum(bot), sum(scans), sum(unique_humans) FROM view_rollups WHERE link_id IN (SELECT id FROM links) GROUP BY link_id;
--> statement-breakpoint
CREATE TRIGGER `link_totals_rollup_insert` AFTER INSERT ON `view_rollups` BEGIN
	INSERT INTO link_totals (link_id, human, bot, scans, unique_humans) VALUES (NEW.link_id, NEW.human, NEW.bot, NEW.scans, NEW.unique_humans)
	ON CONFLICT (link_id) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot, scans = scans + excluded.scans, unique_humans = unique_humans + excluded.unique_humans;
END;
--> statement-breakpoint
CREATE TRIGGER `link_totals_rollup_update` AFTER UPDATE ON `view_rollups` BEGIN
	UPDATE link_totals SET human = human + NEW.human - OLD.human, bot = bot + NEW.bot - OLD.bot, scans = scans + NEW.scans - OLD.scans,
		unique_humans = unique_humans + NEW.unique_humans - OLD.unique_humans WHERE link_id = NEW.link_id;
END;
