// The start banner's storage lines: which database and which uploads store this process uses, so an operator
// (or a second node's) log shows at a glance whether the nodes share what they must.
import type { Config } from "./config.ts";

/** host[:port]/database of a PostgreSQL URL; never its user or password. */
function postgresPlace(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "(default database)";
    return `${parsed.host || parsed.searchParams.get("host") || "localhost"}/${database}`;
  } catch {
    return "(DATABASE_URL)";
  }
}

export function storageLines(config: Config): string[] {
  const database = config.postgres ? `PostgreSQL ${postgresPlace(config.postgres.url)}` : `SQLite ${config.dbPath}`;
  const uploads =
    config.uploads.kind === "s3"
      ? `S3 bucket ${config.uploads.bucket} at ${config.uploads.endpoint} (UPLOADS_STORE=s3)`
      : config.uploads.kind === "db"
        ? "the PostgreSQL database (UPLOADS_STORE=db)"
        : `the folder ${config.uploads.dir} (UPLOADS_STORE=dir)`;
  return [`Database: ${database}`, `Uploads: ${uploads}`];
}
