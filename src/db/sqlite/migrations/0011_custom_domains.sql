-- Custom domains: a user's own short host, verified by DNS, serving that user's links as /{slug}.
CREATE TABLE `domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`hostname` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`verification_token` text NOT NULL,
	`last_checked_at` integer,
	`failing_since` integer,
	`reason` text,
	`root_url` text,
	`not_found_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "domains_status" CHECK("domains"."status" in ('pending', 'verified', 'failing', 'invalid')),
	CONSTRAINT "domains_hostname_len" CHECK(length("domains"."hostname") <= 253),
	CONSTRAINT "domains_root_url_len" CHECK("domains"."root_url" is null or length("domains"."root_url") <= 2048),
	CONSTRAINT "domains_not_found_url_len" CHECK("domains"."not_found_url" is null or length("domains"."not_found_url") <= 2048)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_hostname_unique` ON `domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `domains_user_idx` ON `domains` (`user_id`);--> statement-breakpoint
CREATE INDEX `domains_checked_idx` ON `domains` (`last_checked_at`);--> statement-breakpoint
ALTER TABLE `links` ADD `domain_id` integer REFERENCES domains(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `links_domain_idx` ON `links` (`domain_id`);
