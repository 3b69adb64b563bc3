ALTER TABLE `links` ADD `image_bytes` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `image_source_width` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `image_source_height` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `image_source_bytes` integer;