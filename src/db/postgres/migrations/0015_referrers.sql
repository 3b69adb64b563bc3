-- Each link's people per day by referrer host, as in the SQLite migration 0017: written by the view writer in
-- each batch's statement, deleted with the link, trimmed with the raw views.
CREATE TABLE "referrer_rollups" (
	"link_id" integer NOT NULL,
	"day" text NOT NULL,
	"host" text NOT NULL,
	"human" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "referrer_rollups_link_id_day_host_pk" PRIMARY KEY("link_id","day","host")
);
--> statement-breakpoint
ALTER TABLE "referrer_rollups" ADD CONSTRAINT "referrer_rollups_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
WITH counted AS (
	SELECT link_id, to_char(timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, lower(coalesce(attribution, '')) AS host, count(*)::int AS n
	FROM views WHERE NOT is_bot AND link_id IN (SELECT id FROM links) GROUP BY 1, 2, 3
), ranked AS (
	SELECT *, row_number() OVER (PARTITION BY link_id, day, host = '' ORDER BY n DESC, host) AS place FROM counted
)
INSERT INTO "referrer_rollups" (link_id, day, host, human)
SELECT link_id, day, CASE WHEN host = '' OR (place <= 50 AND length(host) <= 253 AND host !~ '[^a-z0-9.-]') THEN host ELSE '*' END, sum(n)
FROM ranked GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE INDEX "referrer_rollups_day_idx" ON "referrer_rollups" USING btree ("day");
--> statement-breakpoint
-- "Most viewed" walks an index, as in the SQLite migration 0017.
ALTER TABLE "link_totals" ADD COLUMN "user_id" integer;
--> statement-breakpoint
ALTER TABLE "link_totals" ADD COLUMN "views" integer GENERATED ALWAYS AS (human + bot) STORED;
--> statement-breakpoint
UPDATE "link_totals" SET user_id = (SELECT user_id FROM links WHERE links.id = link_totals.link_id);
--> statement-breakpoint
INSERT INTO "link_totals" (link_id, user_id) SELECT id, user_id FROM links WHERE id NOT IN (SELECT link_id FROM link_totals);
--> statement-breakpoint
CREATE INDEX "link_totals_user_views_idx" ON "link_totals" USING btree ("user_id", "views", "link_id");
--> statement-breakpoint
CREATE FUNCTION "link_totals_link_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO link_totals (link_id, user_id) VALUES (NEW.id, NEW.user_id) ON CONFLICT (link_id) DO UPDATE SET user_id = excluded.user_id;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "link_totals_link_insert" AFTER INSERT ON "links" FOR EACH ROW EXECUTE FUNCTION "link_totals_link_insert"();
