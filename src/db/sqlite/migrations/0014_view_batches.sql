-- The view batches stored, by writer slot and sequence, written in the batch's own transaction: a batch replayed
-- from the spool (src/redirect/view-spool.ts) after it was in fact stored is recognised and not counted twice.
CREATE TABLE `view_batches` (
	`slot` integer NOT NULL,
	`seq` integer NOT NULL,
	`stored_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`slot`, `seq`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `view_batches_stored_at_idx` ON `view_batches` (`stored_at`);
