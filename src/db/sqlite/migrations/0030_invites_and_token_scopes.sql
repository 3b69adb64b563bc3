-- Workspace invites (docs/decisions/0065): one e-mail address, one role, one use, 14 days; only the token's hash.
-- And API tokens' scopes and expiry (docs/decisions/0065): null scopes keep a token made before them every power.
CREATE TABLE `workspace_invites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` integer NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by_user_id` integer,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "workspace_invites_email_len" CHECK(length("workspace_invites"."email") between 3 and 254),
	CONSTRAINT "workspace_invites_role" CHECK("workspace_invites"."role" in ('owner', 'admin', 'member', 'viewer', 'billing'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspace_invites_token_hash_unique` ON `workspace_invites` (`token_hash`);--> statement-breakpoint
CREATE INDEX `workspace_invites_workspace_idx` ON `workspace_invites` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `workspace_invites_email_idx` ON `workspace_invites` (`email`);--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `expires_at` integer;
