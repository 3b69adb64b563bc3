PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`stripe_payment_intent_id` text NOT NULL,
	`stripe_invoice_id` text,
	`amount` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`status` text NOT NULL,
	`payment_method` text,
	`receipt_url` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payments_currency_len" CHECK(length("__new_payments"."currency") = 3)
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "user_id", "stripe_payment_intent_id", "stripe_invoice_id", "amount", "currency", "status", "payment_method", "receipt_url", "created_at") SELECT "id", "user_id", "stripe_payment_intent_id", "stripe_invoice_id", "amount", "currency", "status", "payment_method", "receipt_url", "created_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_stripe_payment_intent_id_unique` ON `payments` (`stripe_payment_intent_id`);--> statement-breakpoint
CREATE INDEX `payments_user_idx` ON `payments` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `deleting_since` integer;