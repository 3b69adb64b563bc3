CREATE TABLE "retired_user_slugs" (
	"user_slug" text PRIMARY KEY NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
