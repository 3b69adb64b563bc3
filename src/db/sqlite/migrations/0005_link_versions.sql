ALTER TABLE `links` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `facebook_scrape_at` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `facebook_scrape_ok` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `facebook_scrape_message` text;