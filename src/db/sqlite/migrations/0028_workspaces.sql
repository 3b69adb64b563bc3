-- Workspaces own what a user owned (docs/decisions/0063): every user gets a personal workspace whose id is the
-- user's id and whose slug is the user's slug, so every published address answers as before, and their rows move
-- into it. SQLite cannot add a NOT NULL column with a foreign key, so `workspace_id` is added nullable, filled, and
-- held non-null by triggers (the schema declares it NOT NULL, as PostgreSQL's is).
CREATE TABLE `workspaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`personal_user_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`personal_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "workspaces_slug_len" CHECK(length("workspaces"."slug") between 1 and 20),
	CONSTRAINT "workspaces_name_len" CHECK(length("workspaces"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_slug_unique` ON `workspaces` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_personal_user_id_unique` ON `workspaces` (`personal_user_id`);--> statement-breakpoint
CREATE TABLE `workspace_members` (
	`workspace_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "workspace_members_role" CHECK("workspace_members"."role" in ('owner', 'admin', 'member', 'viewer', 'billing'))
);
--> statement-breakpoint
CREATE INDEX `workspace_members_user_idx` ON `workspace_members` (`user_id`);--> statement-breakpoint
INSERT INTO `workspaces` (`id`, `slug`, `name`, `personal_user_id`, `created_at`) SELECT `id`, `user_slug`, 'Personal', `id`, `created_at` FROM `users`;--> statement-breakpoint
INSERT INTO `workspace_members` (`workspace_id`, `user_id`, `role`, `created_at`) SELECT `id`, `id`, 'owner', `created_at` FROM `users`;--> statement-breakpoint
ALTER TABLE `links` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `links` ADD `updated_by_user_id` integer REFERENCES `users`(`id`) ON DELETE set null;--> statement-breakpoint
UPDATE `links` SET `workspace_id` = `user_id`;--> statement-breakpoint
DROP INDEX `links_live_slug_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `links_live_slug_unique` ON `links` (`workspace_id`,`link_slug`) WHERE "links"."deleted" = 0;--> statement-breakpoint
CREATE INDEX `links_workspace_created_idx` ON `links` (`workspace_id`,`deleted`,`created_at`);--> statement-breakpoint
DROP INDEX `links_disabled_address_idx`;--> statement-breakpoint
CREATE INDEX `links_disabled_address_idx` ON `links` (`workspace_id`,`link_slug`) WHERE "links"."deleted" = 1 and "links"."status" = 'disabled';--> statement-breakpoint
ALTER TABLE `link_old_addresses` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `link_old_addresses` SET `workspace_id` = `user_id`;--> statement-breakpoint
DROP INDEX `link_old_addresses_slug_idx`;--> statement-breakpoint
CREATE INDEX `link_old_addresses_slug_idx` ON `link_old_addresses` (`workspace_id`,`link_slug`);--> statement-breakpoint
ALTER TABLE `domains` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `domains` SET `workspace_id` = `user_id`;--> statement-breakpoint
DROP INDEX `domains_user_hostname_unique`;--> statement-breakpoint
CREATE UNIQUE INDEX `domains_workspace_hostname_unique` ON `domains` (`workspace_id`,`hostname`);--> statement-breakpoint
CREATE INDEX `domains_workspace_idx` ON `domains` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `webhook_endpoints` SET `workspace_id` = `user_id`;--> statement-breakpoint
CREATE INDEX `webhook_endpoints_workspace_idx` ON `webhook_endpoints` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `webhook_deliveries` SET `workspace_id` = `user_id`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_workspace_idx` ON `webhook_deliveries` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `api_tokens` SET `workspace_id` = `user_id`;--> statement-breakpoint
CREATE INDEX `api_tokens_workspace_idx` ON `api_tokens` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE cascade;--> statement-breakpoint
UPDATE `subscriptions` SET `workspace_id` = `user_id`;--> statement-breakpoint
CREATE INDEX `subscriptions_workspace_idx` ON `subscriptions` (`workspace_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `workspace_id` integer REFERENCES `workspaces`(`id`) ON DELETE set null;--> statement-breakpoint
UPDATE `payments` SET `workspace_id` = `user_id`;--> statement-breakpoint
CREATE INDEX `payments_workspace_idx` ON `payments` (`workspace_id`);--> statement-breakpoint
ALTER TABLE `link_totals` ADD `workspace_id` integer;--> statement-breakpoint
UPDATE `link_totals` SET `workspace_id` = (SELECT `workspace_id` FROM `links` WHERE `links`.`id` = `link_totals`.`link_id`);--> statement-breakpoint
CREATE INDEX `link_totals_workspace_views_idx` ON `link_totals` (`workspace_id`, `views`, `link_id`);--> statement-breakpoint
DROP TRIGGER `link_totals_link_insert`;--> statement-breakpoint
CREATE TRIGGER `link_totals_link_insert` AFTER INSERT ON `links` BEGIN
	INSERT INTO link_totals (link_id, user_id, workspace_id) VALUES (NEW.id, NEW.user_id, NEW.workspace_id)
	ON CONFLICT (link_id) DO UPDATE SET user_id = excluded.user_id, workspace_id = excluded.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `links_workspace_required` BEFORE INSERT ON `links` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: links.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `links_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `links` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: links.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `link_old_addresses_workspace_required` BEFORE INSERT ON `link_old_addresses` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: link_old_addresses.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `link_old_addresses_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `link_old_addresses` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: link_old_addresses.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `domains_workspace_required` BEFORE INSERT ON `domains` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: domains.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `domains_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `domains` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: domains.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_workspace_required` BEFORE INSERT ON `webhook_endpoints` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: webhook_endpoints.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `webhook_endpoints_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `webhook_endpoints` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: webhook_endpoints.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_workspace_required` BEFORE INSERT ON `webhook_deliveries` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: webhook_deliveries.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `webhook_deliveries_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `webhook_deliveries` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: webhook_deliveries.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `api_tokens_workspace_required` BEFORE INSERT ON `api_tokens` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: api_tokens.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `api_tokens_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `api_tokens` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: api_tokens.workspace_id'); END;
--> statement-breakpoint
CREATE TRIGGER `subscriptions_workspace_required` BEFORE INSERT ON `subscriptions` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: subscriptions.workspace_id'); END;--> statement-breakpoint
CREATE TRIGGER `subscriptions_workspace_kept` BEFORE UPDATE OF `workspace_id` ON `subscriptions` WHEN NEW.`workspace_id` IS NULL
BEGIN SELECT RAISE(ABORT, 'NOT NULL constraint failed: subscriptions.workspace_id'); END;
