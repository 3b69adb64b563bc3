// `npx drizzle-kit generate` writes a new migration into src/db/migrations from schema changes.
// Migrations are applied by src/db/migrate.ts at start (drizzle-kit migrate does not run under bun:sqlite).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./src/db/migrations",
});
