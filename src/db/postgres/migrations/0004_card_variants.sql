ALTER TABLE "links" ADD COLUMN "image_source_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "image_square_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "image_x_url" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "focal_x" double precision DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "focal_y" double precision DEFAULT 0.5 NOT NULL;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "x_title" text;--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN "whatsapp_description" text;