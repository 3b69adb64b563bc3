-- One bill per workspace (docs/decisions/0069): the Stripe customer and the VAT exemption move from each user to their personal workspace.
ALTER TABLE "workspaces" ADD COLUMN "stripe_customer_id" text;
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "vat_country_code" text;
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "vat_number" text;
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "vat_company_name" text;
--> statement-breakpoint
UPDATE "workspaces" AS w SET
	"stripe_customer_id" = u."stripe_customer_id",
	"vat_country_code" = u."vat_country_code",
	"vat_number" = u."vat_number",
	"vat_company_name" = u."vat_company_name"
FROM "users" AS u
WHERE u."id" = w."personal_user_id";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "stripe_customer_id";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "vat_country_code";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "vat_number";
--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "vat_company_name";
