-- A renamed or moved link keeps answering at its earlier addresses; a dropped one answers 410 (docs/decisions/0047).
CREATE TABLE `link_old_addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`link_id` integer,
	`link_slug` text NOT NULL,
	`domain_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`dropped_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `link_old_addresses_slug_idx` ON `link_old_addresses` (`user_id`,`link_slug`);--> statement-breakpoint
CREATE INDEX `link_old_addresses_link_idx` ON `link_old_addresses` (`link_id`);
