CREATE TABLE `retired_user_slugs` (
	`user_slug` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
