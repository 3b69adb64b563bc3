// Bun.SQL options from a validated DATABASE_URL, every field given explicitly: Bun would otherwise fill
// gaps from DATABASE_URL, PG* and the like on its own, around the one place settings are checked.
import type { SQL } from "bun";

export function postgresOptions(url: string, max: number): SQL.PostgresOrMySQLOptions {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get("host") ?? parsed.searchParams.get("path");
  const sslmode = parsed.searchParams.get("sslmode");
  return {
    adapter: "postgres",
    url,
    hostname: socketDir ?? (decodeURIComponent(parsed.hostname.replace(/^\[|\]$/g, "")) || "localhost"),
    port: parsed.port ? Number(parsed.port) : 5432,
    username: decodeURIComponent(parsed.username) || "postgres",
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || "postgres",
    ...(socketDir ? { path: socketDir } : {}),
    ...(sslmode && sslmode !== "disable" ? { tls: true } : {}),
    max,
    // A managed server's idle_session_timeout would otherwise end the LISTEN connection.
    idleTimeout: 0,
    // A request waiting for a connection the database cannot give fails (a 503, src/http/database-down.ts) well
    // within Bun.serve's 10 s idle timeout, which would otherwise reset the client's connection.
    connectionTimeout: 5,
  };
}

/** Where a URL points, for messages: never its password. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get("host") ?? parsed.searchParams.get("path");
  return `${socketDir ?? parsed.host}/${parsed.pathname.slice(1) || "postgres"}`;
}
