CREATE TABLE "view_visitors" (
	"day" text NOT NULL,
	"link_id" integer NOT NULL,
	"hash" bigint NOT NULL,
	CONSTRAINT "view_visitors_day_link_id_hash_pk" PRIMARY KEY("day","link_id","hash")
);
--> statement-breakpoint
ALTER TABLE "view_rollups" ADD COLUMN "scans" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "view_rollups" ADD COLUMN "unique_humans" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "views" ADD COLUMN "scan" boolean DEFAULT false NOT NULL;