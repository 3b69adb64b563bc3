// What the HTTP modules are built from: plain values and services, created once at start.
import type { Config } from "./config.ts";
import type { Db } from "./db/connection.ts";
import type { Engine } from "./db/engine.ts";
import type { ImageStore } from "./links/images/store.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import type { VersionInfo } from "./meta/version.ts";
import type { PageRenderer } from "./pages/render.tsx";

export type AppContext = {
  config: Config;
  engine: Engine;
  /** engine.db: what services query. */
  db: Db;
  images: ImageStore;
  version: VersionInfo;
  pages: PageRenderer;
  /** Shared by the sign-in, sign-in link and token endpoints. */
  authLimiter: RateLimiter;
};
