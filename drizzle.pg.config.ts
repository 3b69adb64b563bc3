// `npx drizzle-kit generate --config drizzle.pg.config.ts` writes a new PostgreSQL migration into
// src/db/postgres/migrations from schema changes; keep src/db/sqlite/schema.ts in step (tests/unit/schema-parity.test.ts).
// Migrations are applied at start from the list embedded in src/db/postgres/migrations/index.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/postgres/schema.ts",
  out: "./src/db/postgres/migrations",
});
