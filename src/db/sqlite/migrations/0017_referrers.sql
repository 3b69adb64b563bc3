-- Each link's people per day by referrer host (host only, lower-case; '' for none, '*' for the hosts past the
-- day's cap), written by the view writer in each batch's transaction: the raw views that hold referrers are
-- trimmed by retention and have no index by link. Deleted with the link (foreign key), and trimmed with the raw
-- views (redirect/view-retention.ts).
CREATE TABLE `referrer_rollups` (
	`link_id` integer NOT NULL,
	`day` text NOT NULL,
	`host` text NOT NULL,
	`human` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `day`, `host`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- The kept raw views' referrers, capped as the writer caps them (src/redirect/referrer-counts.ts): a day's 50
-- busiest hosts, the rest as '*'.
WITH counted AS (
	SELECT link_id, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch') AS day, lower(coalesce(attribution, '')) AS host, count(*) AS n
	FROM views WHERE is_bot = 0 AND link_id IN (SELECT id FROM links) GROUP BY 1, 2, 3
), ranked AS (
	SELECT *, row_number() OVER (PARTITION BY link_id, day, host = '' ORDER BY n DESC, host) AS place FROM counted
)
INSERT INTO `referrer_rollups` (link_id, day, host, human)
SELECT link_id, day, CASE WHEN host = '' OR (place <= 50 AND length(host) <= 253 AND host NOT GLOB '*[^a-z0-9.-]*') THEN host ELSE '*' END, sum(n)
FROM ranked GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE INDEX `referrer_rollups_day_idx` ON `referrer_rollups` (`day`);
--> statement-breakpoint
-- "Most viewed" walks an index instead of ranking every link of the user: each link gets its totals row when it
-- is made (a trigger), with its owner and its views (people and crawlers) beside the counts.
ALTER TABLE `link_totals` ADD `user_id` integer;
--> statement-breakpoint
ALTER TABLE `link_totals` ADD `views` integer GENERATED ALWAYS AS (human + bot) VIRTUAL;
--> statement-breakpoint
UPDATE `link_totals` SET user_id = (SELECT user_id FROM links WHERE links.id = link_totals.link_id);
--> statement-breakpoint
INSERT INTO `link_totals` (link_id, user_id) SELECT id, user_id FROM links WHERE id NOT IN (SELECT link_id FROM link_totals);
--> statement-breakpoint
CREATE INDEX `link_totals_user_views_idx` ON `link_totals` (`user_id`, `views`, `link_id`);
--> statement-breakpoint
CREATE TRIGGER `link_totals_link_insert` AFTER INSERT ON `links` BEGIN
	INSERT INTO link_totals (link_id, user_id) VALUES (NEW.id, NEW.user_id) ON CONFLICT (link_id) DO UPDATE SET user_id = excluded.user_id;
END;
