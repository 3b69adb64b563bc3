-- One bill per workspace (docs/decisions/0069): the Stripe customer and the VAT exemption move from each user to their personal workspace.
ALTER TABLE `workspaces` ADD `stripe_customer_id` text;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `vat_country_code` text;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `vat_number` text;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `vat_company_name` text;
--> statement-breakpoint
UPDATE `workspaces` SET
	`stripe_customer_id` = (SELECT `stripe_customer_id` FROM `users` WHERE `users`.`id` = `workspaces`.`personal_user_id`),
	`vat_country_code` = (SELECT `vat_country_code` FROM `users` WHERE `users`.`id` = `workspaces`.`personal_user_id`),
	`vat_number` = (SELECT `vat_number` FROM `users` WHERE `users`.`id` = `workspaces`.`personal_user_id`),
	`vat_company_name` = (SELECT `vat_company_name` FROM `users` WHERE `users`.`id` = `workspaces`.`personal_user_id`)
WHERE `personal_user_id` IS NOT NULL;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `stripe_customer_id`;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vat_country_code`;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vat_number`;
--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vat_company_name`;
