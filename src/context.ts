// What the HTTP modules are built from: plain values and services, created once at start.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Db } from "./db/connection.ts";
import type { VersionInfo } from "./meta/version.ts";
import type { LinkCache } from "./redirect/link-cache.ts";

export type AppContext = {
  config: Config;
  sqlite: Database;
  db: Db;
  linkCache: LinkCache;
  version: VersionInfo;
};
