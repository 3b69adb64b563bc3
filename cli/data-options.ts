// The options every server-side command shares (--port, --host, --data, --database-url), the configuration they
// give, and the database they name.
import { existsSync } from "node:fs";
import { openDatabase } from "../src/admin/access.ts";
import { ConfigError, loadConfig, type Config, type ConfigOverrides } from "../src/config/config.ts";
import { CliError } from "./client/http.ts";

export type DataOptions = { port?: string; host?: string; data?: string; databaseUrl?: string };

export function noDatabaseIn(config: Config): CliError {
  return new CliError(
    `No LinkPrev database in ${config.dataDir} (no linkprev.db there): run this from the folder the server runs in, or pass --data with the data directory its start banner names`,
    2,
  );
}

/** The database the server uses; on SQLite one that exists, so a command run from the wrong folder does not create a new empty one. */
export async function existingDatabase(config: Config) {
  if (!config.postgres && !existsSync(config.dbPath)) throw noDatabaseIn(config);
  return openDatabase(config);
}

export function configFrom(options: DataOptions) {
  const overrides: ConfigOverrides = {
    PORT: options.port,
    HOST: options.host,
    DATA_DIR: options.data,
    DATABASE_URL: options.databaseUrl,
  };
  try {
    return loadConfig(overrides);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
