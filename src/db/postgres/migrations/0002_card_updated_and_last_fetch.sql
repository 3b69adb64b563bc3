ALTER TABLE "links" ADD COLUMN "card_updated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "view_rollups" ADD COLUMN "last_at" timestamp (3) with time zone;--> statement-breakpoint
-- Existing links: the last edit is the best known card change.
UPDATE "links" SET "card_updated_at" = coalesce("updated_at", "created_at");--> statement-breakpoint
-- Existing rollups: the newest view each counts (one pass over views; every node slot gets the link's newest).
UPDATE "view_rollups" SET "last_at" = m."at"
FROM (SELECT "link_id", to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day", coalesce("platform", '') AS "platform", max("timestamp") AS "at"
      FROM "views" GROUP BY 1, 2, 3) AS m
WHERE m."link_id" = "view_rollups"."link_id" AND m."day" = "view_rollups"."day" AND m."platform" = "view_rollups"."platform";
