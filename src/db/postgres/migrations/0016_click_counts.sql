-- The link.clicked counts of each node's open window (src/redirect/click-events.ts), added in each view batch's own
-- statement and taken, with the events made of them, when the window closes: a crash loses none it acknowledged.
CREATE TABLE "webhook_click_counts" (
	"slot" integer NOT NULL,
	"link_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"bucket" text NOT NULL,
	"n" integer NOT NULL,
	"since" bigint NOT NULL,
	CONSTRAINT "webhook_click_counts_slot_link_id_bucket_pk" PRIMARY KEY("slot","link_id","bucket")
);
