-- The link.clicked counts of the open window (src/redirect/click-events.ts), added in each view batch's own
-- transaction and taken, with the events made of them, when the window closes: a crash loses none it acknowledged.
CREATE TABLE `webhook_click_counts` (
	`slot` integer NOT NULL,
	`link_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`bucket` text NOT NULL,
	`n` integer NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`slot`, `link_id`, `bucket`)
) WITHOUT ROWID;
