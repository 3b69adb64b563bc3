-- Sessions name their user in a column (until now only inside the JSON of sess). Existing sessions keep
-- working: user_id is filled from that JSON; a session whose user is gone has nothing to sign in to and is dropped.
ALTER TABLE "sessions" ADD COLUMN "user_id" integer;--> statement-breakpoint
UPDATE "sessions" SET "user_id" = ("sess"::jsonb ->> 'userId')::integer;--> statement-breakpoint
DELETE FROM "sessions" WHERE "user_id" IS NULL OR "user_id" NOT IN (SELECT "id" FROM "users");--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");
