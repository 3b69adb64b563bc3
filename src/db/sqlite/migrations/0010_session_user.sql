-- Sessions name their user in a column (until now only inside the JSON of sess). Existing sessions keep
-- working: user_id is filled from that JSON; a session whose user is gone has nothing to sign in to and is dropped.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`sess` text NOT NULL,
	`expire` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sessions_sid_len" CHECK(length("__new_sessions"."sid") <= 255),
	CONSTRAINT "sessions_sess_len" CHECK(length("__new_sessions"."sess") <= 8192)
);
--> statement-breakpoint
INSERT INTO `__new_sessions`("sid", "user_id", "sess", "expire") SELECT "sid", json_extract("sess", '$.userId'), "sess", "expire" FROM `sessions` WHERE json_valid("sess") AND json_extract("sess", '$.userId') IN (SELECT "id" FROM `users`);--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `sessions_expire_idx` ON `sessions` (`expire`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);
