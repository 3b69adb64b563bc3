// `npx drizzle-kit generate` writes a new migration into src/db/sqlite/migrations from schema changes.
// Migrations are applied by src/db/sqlite/migrate.ts at start (drizzle-kit migrate does not run under bun:sqlite).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/sqlite/schema.ts",
  out: "./src/db/sqlite/migrations",
});
