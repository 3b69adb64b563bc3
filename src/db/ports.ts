// What the rest of the app uses of the database and of the cluster around it: a few small interfaces, one per
// concern, built once per thread by openPlatform (platform.ts). Types only, so that every module may import
// them without a cycle.
import type { Change } from "./change.ts";
import type { RETIRED } from "./go-link-sql.ts";
import type { Db } from "./sqlite/connection.ts";

export type { Db };

/** What /go needs of a link, joined with its owner's slug. */
export type GoLinkRow = {
  id: number;
  userId: number;
  userSlug: string;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  /** The newest version of the short URL: /go/…/{n} serves 1 ≤ n ≤ version. */
  version: number;
  /** The square and X renditions (null: none, every variant shows imageUrl) and the text overrides. */
  imageSquareUrl: string | null;
  imageXUrl: string | null;
  xTitle: string | null;
  whatsappDescription: string | null;
  /** The link's rules as stored JSON (src/rules/model.ts GoRules); null, for most links: none. */
  goRules: string | null;
  /** People counted against the rules' maxClicks so far (null: no rules). */
  clicks: number | null;
  /** The custom domain it is served on as /{linkSlug} (null: none). */
  domainId: number | null;
  /** "active", or "disabled" (src/safety/): a neutral card and a warning page, never the owner's card. */
  status: string;
};

/** The database services query: drizzle (`db`, awaited), transactions, and what differs between the engines. */
export interface Database {
  readonly kind: "sqlite" | "postgres";
  readonly db: Db;
  /**
   * Runs `work` in one transaction on `tx`: all of it commits or none. On SQLite do no other I/O inside
   * (see sqlite/engine.ts): the body holds the database's write lock.
   */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * A transaction in which the database neither checks nor cascades foreign keys, for removing an owner's rows
   * children first, explicitly: SQLite would otherwise scan the index-less `views` table once per deleted link
   * (docs/decisions/0011). PostgreSQL's foreign keys are indexed (and `views` has none): a plain transaction.
   */
  transactionWithoutForeignKeys<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  isUniqueViolation(error: unknown): boolean;
  /** Applies pending migrations (once per cluster when nodes start together); returns their names. */
  migrate(): Promise<string[]>;
  ping(): Promise<void>;
  /** Closes the connections (and the change subscriptions, which share them). */
  close(): Promise<void>;
}

/** Changes to links, user slugs and custom domains, announced to every link cache and host map of every node. */
export interface ChangeBus {
  /** Never throws: it runs after the commit. */
  announceChange(change: Change): Promise<void>;
  /** `onChange` per change; `onReset` when changes may have been missed (after a reconnection). */
  subscribeChanges(onChange: (change: Change) => void, onReset: () => void): Promise<void>;
}

export interface ClusterJobs {
  /** Runs `job` here unless another node is running the job of that name right now. */
  exclusively(jobName: string, job: () => Promise<void>): Promise<void>;
}

/** The longest window a HitCounter counts in (the password budget's day). */
export const HIT_WINDOW_MAX_MS = 86_400_000;

export interface HitCounter {
  /**
   * Adds one to the counter of `key` in the window of `windowMs` (at most HIT_WINDOW_MAX_MS) starting at
   * `windowStart`; the new count. Windows of different lengths (a minute, an hour) are counted side by side.
   */
  countHit(key: string, windowStart: number, windowMs: number): Promise<number>;
}

/** The /go lookups, as plain SQL on the engine's own client (the hot path skips drizzle). */
export interface GoLinkSource {
  /**
   * The live link; else the link whose earlier address this is (docs/decisions/0047; `linkSlug` may be a moved
   * address's, address-key.ts movedSlug); RETIRED for a dropped earlier address or under a deleted
   * account's user slug; null otherwise.
   */
  findGoLink(userSlug: string, linkSlug: string): Promise<GoLinkRow | typeof RETIRED | null>;
  /** The newest live links, newest first; `beforeId`: only those with a smaller id (the next page). */
  newestGoLinks(limit: number, beforeId?: number): Promise<GoLinkRow[]>;
  /** The ids of at most `limit` viewed links, the most views of all time (link_totals) first; deleted ones may be among them. */
  mostViewedLinkIds(limit: number): Promise<number[]>;
  /** The live links among `ids`, in no particular order. */
  goLinksByIds(ids: number[]): Promise<GoLinkRow[]>;
  /**
   * Every live link's key, every earlier address's keys and every retired user slug's key (address-key.ts), each passed to `onAddress`:
   * what the link cache's filter of existing addresses is built from.
   */
  goAddresses(onAddress: (key: string) => void): Promise<void>;
}

/** The people counted against a capped link's maxClicks (src/go/rule-answer.ts; docs/decisions/0021). */
export interface ClickCaps {
  /** One atomic UPDATE: the count with this click while it was below `maxClicks`; null once reached. */
  takeClick(linkId: number, maxClicks: number): Promise<number | null>;
}

/** How the view writer Worker opens its own connection. */
export type ViewWriterTarget = { kind: "sqlite"; dbPath: string } | { kind: "postgres"; url: string; slot: number };

/** The `uploads` table (postgres/uploads.ts): image bytes by name, an UploadBackend of links/images/backends.ts. */
export interface UploadTable {
  readonly kind: "db";
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<Uint8Array<ArrayBuffer> | null>;
  delete(name: string): Promise<void>;
  list(): Promise<Array<{ name: string; createdAt: number }>>;
}

/** A due webhook delivery with what sending it needs of its endpoint (src/webhooks/deliverer.ts). */
export type ClaimedDelivery = {
  id: number;
  endpointId: number;
  eventId: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  failingSince: number | null;
};

/** How much one claim takes: `limit` in all, at most `perEndpoint` of each endpoint, none of the `skip` endpoints. */
export type ClaimShare = { limit: number; perEndpoint: number; skip: number[] };

/** The webhook outbox's claims: each due delivery goes to one claimer (one node on PostgreSQL: SKIP LOCKED). */
export interface WebhookQueue {
  /**
   * Pending deliveries of enabled, unpaused endpoints due at `now`, oldest first within `share`, each made not due
   * for `leaseMs`: a claimer killed mid-delivery leaves it to be claimed again then, with the same event id.
   */
  claimDue(now: number, leaseMs: number, share: ClaimShare): Promise<ClaimedDelivery[]>;
}

/** An event for every enabled endpoint of the workspace subscribed to `type` (the view writer's link.clicked). */
export type OutboxEvent = { workspaceId: number; eventId: string; type: string; payload: string; at: number };

/** A counted link as a window's close finds it: its slug and its workspace, whose endpoints hear of it. */
export type CountedLink = { slug: string; workspaceId: number };

/**
 * A view batch's link.clicked counts, per link and bucket ("people", "qr", "crawler:" + platform), as columns; stored
 * in the batch's own transaction (statement on PostgreSQL), added to those of the window opened at `since`.
 */
export type ClickTally = { linkId: number[]; userId: number[]; bucket: string[]; n: number[]; since: number };
/** A link's stored count in one bucket of the open window. */
export type StoredClickCount = { linkId: number; userId: number; bucket: string; n: number; since: number };

/** The view writer's side of the webhook outbox, on its own connection (sqlite/click-outbox.ts, postgres/click-outbox.ts). */
export interface ClickOutbox {
  /**
   * The users whose links' views are counted: the members of the workspaces with an enabled endpoint subscribed to
   * `type` (the views carry their link's creator; the close routes each link's event to its own workspace).
   */
  subscribers(type: string): Promise<Set<number>>;
  /**
   * Closes this writer's window in one transaction: takes its stored counts and records the events `toEvents`
   * makes of them (given the links' slugs and workspaces; a deleted link has none).
   */
  closeWindow(toEvents: (counts: StoredClickCount[], links: Map<number, CountedLink>) => OutboxEvent[]): Promise<void>;
}

export type Platform = {
  database: Database;
  changes: ChangeBus;
  jobs: ClusterJobs;
  hits: HitCounter;
  goLinks: GoLinkSource;
  clickCaps: ClickCaps;
  viewWriter: ViewWriterTarget;
  webhooks: WebhookQueue;
  /** The `uploads` table, for UPLOADS_STORE=db: PostgreSQL only. */
  uploads: UploadTable | null;
};

/**
 * One chunk of the raw views' retention (views/view-retention.ts): among the next RETENTION_CHUNK_ROWS views
 * after `afterId`, deletes those older than `before`. `lastId`: the chunk's last id (null when there were no rows).
 * A cycle's first chunk (`afterId` 0) also deletes the referrer counts of the days before `before`'s.
 */
export type PruneChunk = (
  afterId: number,
  before: number,
) => Promise<{ lastId: number | null; rows: number; deleted: number }>;

export type CycleLock = { acquire(): Promise<boolean>; release(): Promise<void> };
