-- A custom domain's app-link documents, served byte-exact at /.well-known/ on its host (docs/decisions/0060):
-- Apple's app-site-association and Android's asset links, as their owner wrote them (at most 128 KB each).
-- The host map holds them, so the trigger that bumps host_map_version watches them too.
ALTER TABLE "domains" ADD COLUMN "apple_app_site_association" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "asset_links" text;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_aasa_len" CHECK ("apple_app_site_association" IS NULL OR octet_length("apple_app_site_association") <= 131072);--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_asset_links_len" CHECK ("asset_links" IS NULL OR octet_length("asset_links") <= 131072);--> statement-breakpoint
DROP TRIGGER "domains_host_map_update" ON "domains";--> statement-breakpoint
CREATE TRIGGER "domains_host_map_update" AFTER UPDATE ON "domains" FOR EACH ROW
WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."hostname" IS DISTINCT FROM NEW."hostname" OR OLD."user_id" IS DISTINCT FROM NEW."user_id"
  OR OLD."root_url" IS DISTINCT FROM NEW."root_url" OR OLD."not_found_url" IS DISTINCT FROM NEW."not_found_url"
  OR OLD."apple_app_site_association" IS DISTINCT FROM NEW."apple_app_site_association" OR OLD."asset_links" IS DISTINCT FROM NEW."asset_links")
EXECUTE FUNCTION "bump_host_map_version"();
