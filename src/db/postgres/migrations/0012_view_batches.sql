-- The view batches stored, by writer slot and sequence, written in the batch's own statement: a batch whose commit
-- answer was lost, replayed from the spool (src/redirect/view-spool.ts), is recognised and not counted twice.
CREATE TABLE "view_batches" (
	"slot" integer NOT NULL,
	"seq" bigint NOT NULL,
	"stored_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "view_batches_slot_seq_pk" PRIMARY KEY("slot","seq")
);
--> statement-breakpoint
CREATE INDEX "view_batches_stored_at_idx" ON "view_batches" USING btree ("stored_at");
