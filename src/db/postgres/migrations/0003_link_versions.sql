ALTER TABLE "links" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "facebook_scrape_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "facebook_scrape_ok" boolean;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "facebook_scrape_message" text;