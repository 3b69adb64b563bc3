CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "api_tokens_name_len" CHECK(length("api_tokens"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_token_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user_idx` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `link_counters` (
	`link_id` integer PRIMARY KEY NOT NULL,
	`views_human` integer DEFAULT 0 NOT NULL,
	`views_bot` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`link_slug` text NOT NULL,
	`target_url` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`image_url` text,
	`image_source` text,
	`image_width` integer,
	`image_height` integer,
	`deleted` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "links_link_slug_len" CHECK(length("links"."link_slug") between 1 and 20),
	CONSTRAINT "links_target_url_len" CHECK(length("links"."target_url") <= 2048),
	CONSTRAINT "links_title_len" CHECK(length("links"."title") <= 255),
	CONSTRAINT "links_description_len" CHECK(length("links"."description") <= 2048),
	CONSTRAINT "links_image_url_len" CHECK("links"."image_url" is null or length("links"."image_url") <= 2048),
	CONSTRAINT "links_image_source" CHECK("links"."image_source" is null or "links"."image_source" in ('upload', 'ai'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_live_slug_unique` ON `links` (`user_id`,`link_slug`) WHERE "links"."deleted" = 0;--> statement-breakpoint
CREATE INDEX `links_user_created_idx` ON `links` (`user_id`,`deleted`,`created_at`);--> statement-breakpoint
CREATE TABLE `login_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`stripe_payment_intent_id` text NOT NULL,
	`stripe_invoice_id` text,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`status` text NOT NULL,
	`payment_method` text,
	`receipt_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payments_currency_len" CHECK(length("payments"."currency") = 3)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_stripe_payment_intent_id_unique` ON `payments` (`stripe_payment_intent_id`);--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expire` integer NOT NULL,
	CONSTRAINT "sessions_sid_len" CHECK(length("sessions"."sid") <= 255),
	CONSTRAINT "sessions_sess_len" CHECK(length("sessions"."sess") <= 8192)
);
--> statement-breakpoint
CREATE INDEX `sessions_expire_idx` ON `sessions` (`expire`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`stripe_subscription_id` text NOT NULL,
	`stripe_price_id` text,
	`status` text NOT NULL,
	`plan_id` text NOT NULL,
	`is_annual` integer DEFAULT false NOT NULL,
	`current_period_start` integer,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`stripe_event_at` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_stripe_subscription_id_unique` ON `subscriptions` (`stripe_subscription_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `user_consents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`terms_accepted` integer DEFAULT true NOT NULL,
	`privacy_accepted` integer DEFAULT true NOT NULL,
	`acceptance_date` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_consents_user_idx` ON `user_consents` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`profile_image_url` text,
	`stripe_customer_id` text,
	`user_slug` text NOT NULL,
	`google_sub` text,
	`vat_country_code` text,
	`vat_number` text,
	`vat_company_name` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "users_user_slug_len" CHECK(length("users"."user_slug") between 1 and 20)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_user_slug_unique` ON `users` (`user_slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_unique` ON `users` (`google_sub`);--> statement-breakpoint
CREATE TABLE `view_days` (
	`link_id` integer NOT NULL,
	`day` text NOT NULL,
	`human` integer DEFAULT 0 NOT NULL,
	`bot` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `day`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `view_platforms` (
	`link_id` integer NOT NULL,
	`platform` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`link_id`, `platform`),
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `views` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`link_id` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`client_width` integer DEFAULT 0 NOT NULL,
	`client_height` integer DEFAULT 0 NOT NULL,
	`attribution` text,
	`is_bot` integer DEFAULT false NOT NULL,
	`platform` text,
	`timestamp` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade
);
