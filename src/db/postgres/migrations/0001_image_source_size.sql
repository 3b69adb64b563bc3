ALTER TABLE "links" ADD COLUMN "image_bytes" integer;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "image_source_width" integer;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "image_source_height" integer;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "image_source_bytes" integer;