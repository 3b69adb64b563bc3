ALTER TABLE `links` ADD `card_updated_at` integer;--> statement-breakpoint
ALTER TABLE `view_rollups` ADD `last_at` integer;--> statement-breakpoint
-- Existing links: the last edit is the best known card change.
UPDATE `links` SET `card_updated_at` = coalesce(`updated_at`, `created_at`);--> statement-breakpoint
-- Existing rollups: the newest view each counts (one pass over views, grouped as the writer folds them).
UPDATE `view_rollups` SET `last_at` = m.`at`
FROM (SELECT `link_id`, strftime('%Y-%m-%d', `timestamp` / 1000, 'unixepoch') AS `day`, coalesce(`platform`, '') AS `platform`, max(`timestamp`) AS `at`
      FROM `views` GROUP BY 1, 2, 3) AS m
WHERE m.`link_id` = `view_rollups`.`link_id` AND m.`day` = `view_rollups`.`day` AND m.`platform` = `view_rollups`.`platform`;
