-- Claims of one hostname by several accounts no longer block each other while unverified; one account serves it
-- (docs/decisions/0044). host_map_version is bumped by triggers whenever the host map may have changed, by any
-- process (the CLI included): every node polls it (src/domains/host-map.ts).
ALTER TABLE "domains" DROP CONSTRAINT "domains_hostname_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "domains_served_hostname_unique" ON "domains" USING btree ("hostname") WHERE "domains"."status" in ('verified', 'failing');--> statement-breakpoint
CREATE UNIQUE INDEX "domains_user_hostname_unique" ON "domains" USING btree ("user_id","hostname");--> statement-breakpoint
CREATE TABLE "host_map_version" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "host_map_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
CREATE FUNCTION "bump_host_map_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "host_map_version" SET "version" = "version" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "domains_host_map_change" AFTER INSERT OR DELETE ON "domains" FOR EACH STATEMENT EXECUTE FUNCTION "bump_host_map_version"();--> statement-breakpoint
CREATE TRIGGER "domains_host_map_update" AFTER UPDATE ON "domains" FOR EACH ROW
WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."hostname" IS DISTINCT FROM NEW."hostname" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
  OR OLD."root_url" IS DISTINCT FROM NEW."root_url" OR OLD."not_found_url" IS DISTINCT FROM NEW."not_found_url")
EXECUTE FUNCTION "bump_host_map_version"();--> statement-breakpoint
CREATE TRIGGER "users_host_map_update" AFTER UPDATE ON "users" FOR EACH ROW
WHEN (OLD."suspended_at" IS DISTINCT FROM NEW."suspended_at" OR OLD."deleting_since" IS DISTINCT FROM NEW."deleting_since" OR OLD."user_slug" IS DISTINCT FROM NEW."user_slug")
EXECUTE FUNCTION "bump_host_map_version"();
