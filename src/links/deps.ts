// What the link operations (create.ts, update.ts, delete.ts, …) are given, and the messages they share.
import type { Clock } from "../clock.ts";
import { linkChange } from "../db/change.ts";
import type { ChangeBus, Database } from "../db/ports.ts";
import type { FacebookRescraper } from "../previews/facebook-scrape.ts";
import type { SafeFetcher } from "../safe-fetch/fetcher.ts";
import type { SafetyDeps } from "../safety/deps.ts";
import type { ImageStore } from "./images/store.ts";
import type { Workspace } from "../workspaces/acting.ts";

export type LinkDeps = {
  database: Database;
  changes: ChangeBus;
  images: ImageStore;
  publicUrl: string;
  /** Whether a URL leads back to this instance (src/links/own-addresses.ts, or a custom domain served here): such a target would loop. */
  leadsHere: (url: URL) => Promise<boolean>;
  billingEnabled: boolean;
  /** Asks Facebook to re-scrape a changed card; null when FACEBOOK_APP_ID is not set. */
  facebook: FacebookRescraper | null;
  /** Imports images named by imageImportUrl; null when fetching is turned off (FETCH_DISABLED). */
  fetcher: SafeFetcher | null;
  /** Stamps a card's change (cardUpdatedAt), which the platforms' staleness is measured against. */
  clock: Clock;
  /** Threat feeds, blocked hosts and the abuse brakes every target passes (src/safety/). */
  safety: SafetyDeps;
};

export const SLUG_TAKEN = "This custom URL is already taken";
export const SLUG_RESERVED = "This custom URL is reserved";
export const LINK_NOT_FOUND = "Link not found";

/** The change announced for the link at this short address (every /go cache drops it). */
export const shortAddress = (workspace: Workspace, linkSlug: string) => linkChange(workspace.slug, linkSlug);
