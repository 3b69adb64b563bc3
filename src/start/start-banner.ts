// The start banner's storage lines: which database and which uploads store this process uses, so an operator
// (or a second node's) log shows at a glance whether the nodes share what they must.
import type { Config } from "../config/config.ts";

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

/** What an operator should fix in a multi-node set-up (PostgreSQL), said at start. */
export function storageWarnings(config: Config): string[] {
  if (!config.postgres) return [];
  const warnings: string[] = [];
  if (config.uploads.kind === "dir") {
    warnings.push(
      `Uploads are stored in this node's ${config.uploads.dir} (UPLOADS_STORE=dir): fine for one node; with several nodes set UPLOADS_STORE=s3 or db (or share that folder), or images uploaded on one node are missing on the others`,
    );
  }
  if (!config.publicUrlSet) {
    warnings.push(
      `PUBLIC_URL is not set: this node calls itself ${config.publicUrl} in cards and sign-in links; with several nodes set the same PUBLIC_URL on every node (docs/self-hosting.md, Scaling out)`,
    );
  }
  return warnings;
}
