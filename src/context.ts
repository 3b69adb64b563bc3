// What the HTTP modules are built from: plain values and services, created once at start.
import type { Database } from "bun:sqlite";
import type { Config } from "./config.ts";
import type { Db } from "./db/connection.ts";
import type { ImageStore } from "./links/images/store.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import type { VersionInfo } from "./meta/version.ts";
import type { PageRenderer } from "./pages/render.tsx";
import type { LinkCache } from "./redirect/link-cache.ts";

export type AppContext = {
  config: Config;
  sqlite: Database;
  db: Db;
  linkCache: LinkCache;
  images: ImageStore;
  version: VersionInfo;
  pages: PageRenderer;
  /** Shared by the sign-in, sign-in link and token endpoints. */
  authLimiter: RateLimiter;
};
