-- Which target a failed health check was about: the link's own or one of its rules' (src/rules/record-health.ts).
ALTER TABLE "link_rules" ADD COLUMN "health_failed_url" text;
