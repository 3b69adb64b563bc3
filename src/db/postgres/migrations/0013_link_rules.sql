-- A link's rules and health (src/rules/), one row per link that has either; a link without rules has no row.
CREATE TABLE "link_rules" (
	"link_id" integer PRIMARY KEY NOT NULL,
	"go_rules" text,
	"clicks" integer DEFAULT 0 NOT NULL,
	"health_status" text DEFAULT 'unchecked' NOT NULL,
	"health_checked_at" timestamp (3) with time zone,
	"health_http_status" integer,
	"health_final_url" text,
	"health_failures" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "link_rules_go_rules_len" CHECK (length("link_rules"."go_rules") <= 16384)
);
--> statement-breakpoint
ALTER TABLE "link_rules" ADD CONSTRAINT "link_rules_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
