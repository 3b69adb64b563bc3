ALTER TABLE `links` ADD `image_source_url` text;--> statement-breakpoint
ALTER TABLE `links` ADD `image_square_url` text;--> statement-breakpoint
ALTER TABLE `links` ADD `image_x_url` text;--> statement-breakpoint
ALTER TABLE `links` ADD `focal_x` real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `focal_y` real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `x_title` text;--> statement-breakpoint
ALTER TABLE `links` ADD `whatsapp_description` text;