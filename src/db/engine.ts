// The one small interface behind which SQLite and PostgreSQL differ: transactions, the /go lookups,
// migrations, link-change announcements, cluster-wide jobs and counters. Services see only `db` (drizzle,
// awaited) and `transaction`; which engine runs is decided once, from config, in openEngine.
import type { Config } from "../config.ts";
import type { Db } from "./connection.ts";
import { useTablesOf } from "./tables.ts";

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
  /** The square and X renditions (null: none, every variant shows imageUrl) and the text overrides (issue 20). */
  imageSquareUrl: string | null;
  imageXUrl: string | null;
  xTitle: string | null;
  whatsappDescription: string | null;
};

/** What /go finds under the user slug of a deleted account (src/account/deletion.ts): answered 410 Gone. */
export const RETIRED = "retired";

/** How the view writer Worker opens its own connection. */
export type ViewWriterTarget = { kind: "sqlite"; dbPath: string } | { kind: "postgres"; url: string; slot: number };

export interface Engine {
  readonly kind: "sqlite" | "postgres";
  readonly db: Db;
  /**
   * Runs `work` in one transaction on `tx`: all of it commits or none. On SQLite do no other I/O inside
   * (see sqlite-engine.ts): the body holds the database's write lock.
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
  /** The live link; RETIRED when there is none and the user slug is a deleted account's; null otherwise. */
  findGoLink(userSlug: string, linkSlug: string): Promise<GoLinkRow | typeof RETIRED | null>;
  newestGoLinks(limit: number): Promise<GoLinkRow[]>;
  /** Tells every link cache, on every node, that the link at this short address changed. Never throws: it runs after the commit. */
  announceLinkChange(key: string): Promise<void>;
  /** `onChange` per changed key; `onReset` when changes may have been missed (after a reconnection). */
  subscribeLinkChanges(onChange: (key: string) => void, onReset: () => void): Promise<void>;
  /** Runs `job` here unless another node is running the job of that name right now. */
  exclusively(jobName: string, job: () => Promise<void>): Promise<void>;
  /** Adds one to the counter of `key` in the window starting at `windowStart`; the new count. */
  countHit(key: string, windowStart: number): Promise<number>;
  readonly viewWriter: ViewWriterTarget;
  close(): Promise<void>;
}

/** The database did not answer at start-up: one line for the operator, never a password. */
export class DatabaseUnavailable extends Error {}

export async function openEngine(config: Config): Promise<Engine> {
  useTablesOf(config.postgres ? "postgres" : "sqlite");
  if (config.postgres) {
    const { openPostgres } = await import("./postgres-engine.ts");
    return openPostgres(config.postgres);
  }
  const { openSqliteEngine } = await import("./sqlite-engine.ts");
  return openSqliteEngine(config.dbPath);
}
