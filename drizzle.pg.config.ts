// `npx drizzle-kit generate --config drizzle.pg.config.ts` writes a new PostgreSQL migration into
// src/db/migrations-pg from schema changes; keep src/db/schema.ts in step (tests/unit/schema-parity.test.ts).
// Migrations are applied at start from the list embedded in src/db/migrations-pg/index.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema.pg.ts",
  out: "./src/db/migrations-pg",
});
