-- Each link's all-time counts in one row, kept from view_rollups by a trigger in the same transaction as the
-- rollups (every node's slot rows add to it): the dashboard's totals and "most viewed" read one row per link.
-- Rollup rows are only ever deleted with their link (account deletion), whose totals row goes by the foreign key:
-- no delete trigger, so that deletion takes no lock the view writer's trigger also takes (a deadlock otherwise).
CREATE TABLE "link_totals" (
	"link_id" integer PRIMARY KEY NOT NULL,
	"human" integer DEFAULT 0 NOT NULL,
	"bot" integer DEFAULT 0 NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"unique_humans" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_totals" ADD CONSTRAINT "link_totals_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "link_totals" (link_id, human, bot, scans, unique_humans)
SELECT link_id, sum(human), sum(bot), sum(scans), sum(unique_humans) FROM view_rollups WHERE link_id IN (SELECT id FROM links) GROUP BY link_id;
--> statement-breakpoint
CREATE FUNCTION "link_totals_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO link_totals (link_id, human, bot, scans, unique_humans) VALUES (NEW.link_id, NEW.human, NEW.bot, NEW.scans, NEW.unique_humans)
		ON CONFLICT (link_id) DO UPDATE SET human = link_totals.human + excluded.human, bot = link_totals.bot + excluded.bot,
			scans = link_totals.scans + excluded.scans, unique_humans = link_totals.unique_humans + excluded.unique_humans;
	ELSE
		UPDATE link_totals SET human = human + NEW.human - OLD.human, bot = bot + NEW.bot - OLD.bot, scans = scans + NEW.scans - OLD.scans,
			unique_humans = unique_humans + NEW.unique_humans - OLD.unique_humans WHERE link_id = NEW.link_id;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "link_totals_keep" AFTER INSERT OR UPDATE ON "view_rollups" FOR EACH ROW EXECUTE FUNCTION "link_totals_keep"();
