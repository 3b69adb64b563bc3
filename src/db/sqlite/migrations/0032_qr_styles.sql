-- QR code styles (docs/decisions/0067): a workspace's default style and logo (a small PNG as base64), and a link's own style.
CREATE TABLE `qr_styles` (
	`workspace_id` integer PRIMARY KEY NOT NULL,
	`style` text,
	`logo` text,
	`logo_width` integer,
	`logo_height` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "qr_styles_style_len" CHECK(`style` is null or length(`style`) <= 1024),
	CONSTRAINT "qr_styles_logo_len" CHECK(`logo` is null or length(`logo`) <= 2000000)
);
--> statement-breakpoint
CREATE TABLE `link_qr_styles` (
	`link_id` integer PRIMARY KEY NOT NULL,
	`style` text NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "link_qr_styles_style_len" CHECK(length(`style`) <= 1024)
);
