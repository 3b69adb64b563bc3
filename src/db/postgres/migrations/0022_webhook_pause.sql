-- An endpoint its owner paused keeps getting its events recorded; they wait until it is resumed (src/webhooks/).
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;
