-- QR code styles (docs/decisions/0067): a workspace's default style and logo (a small PNG as base64), and a link's own style.
CREATE TABLE "qr_styles" (
	"workspace_id" integer PRIMARY KEY NOT NULL,
	"style" text,
	"logo" text,
	"logo_width" integer,
	"logo_height" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qr_styles_style_len" CHECK ("style" is null or length("style") <= 1024),
	CONSTRAINT "qr_styles_logo_len" CHECK ("logo" is null or length("logo") <= 2000000)
);
--> statement-breakpoint
CREATE TABLE "link_qr_styles" (
	"link_id" integer PRIMARY KEY NOT NULL,
	"style" text NOT NULL,
	CONSTRAINT "link_qr_styles_style_len" CHECK (length("style") <= 1024)
);
--> statement-breakpoint
ALTER TABLE "qr_styles" ADD CONSTRAINT "qr_styles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_qr_styles" ADD CONSTRAINT "link_qr_styles_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
