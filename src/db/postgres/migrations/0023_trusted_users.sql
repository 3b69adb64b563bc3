-- Set by an operator (linkprev admin users trust): the new-account limits do not apply (src/safety/limits.ts).
ALTER TABLE "users" ADD COLUMN "trusted_at" timestamp(3) with time zone;
