// Where uploaded images are kept (UPLOADS_STORE): files in DATA_DIR/uploads, S3-compatible object storage, or
// PostgreSQL's `uploads` table. ImageStore names, checks and serves them; a backend only holds bytes by name.
// Names are random and never reused, so nothing stored ever changes: the remote stores keep a small
// per-process cache of hot images (crawlers fetch the image right after the card).
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../../clock.ts";
import type { Config, S3Settings } from "../../config/config.ts";
import type { Platform } from "../../db/ports.ts";
import { makePrivateDir, writePrivateFile } from "../../private-files.ts";

export const STORED_NAME = /^[a-z0-9]{32}\.jpg$/;
const CONTENT_TYPE = "image/jpeg";

export type StoredUpload = { name: string; createdAt: number };
export type UploadBody = Blob | Uint8Array<ArrayBuffer>;

export interface UploadBackend {
  readonly kind: "dir" | "s3" | "db";
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The bytes (or a file to stream) of a stored upload; null when there is none of that name. */
  get(name: string): Promise<UploadBody | null>;
  /** Removes it; nothing happens when there is none of that name. */
  delete(name: string): Promise<void>;
  /** Everything stored, with when it was stored (ms), for the start-up sweep of unreferenced uploads. */
  list(): Promise<StoredUpload[]>;
  /** Another thread of this process stored (bytes) or removed (null) this upload: a cache takes note. */
  learn?(name: string, bytes: Uint8Array<ArrayBuffer> | null): void;
}

/** Tells another thread of every upload stored or removed here (app workers tell the request thread). */
export type UploadRelay = { stored(name: string, bytes: Uint8Array): void; removed(name: string): void };

/** A store whose changes are relayed, so that the request thread's cache of hot images never serves a removed one. */
export class RelayedUploads implements UploadBackend {
  constructor(
    private readonly inner: UploadBackend,
    private readonly relay: UploadRelay,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.inner.put(name, bytes);
    this.relay.stored(name, bytes);
  }

  get(name: string): Promise<UploadBody | null> {
    return this.inner.get(name);
  }

  async delete(name: string): Promise<void> {
    await this.inner.delete(name);
    this.relay.removed(name);
  }

  list(): Promise<StoredUpload[]> {
    return this.inner.list();
  }
}

/** Today's store: one file per upload in DATA_DIR/uploads. The folder is LinkPrev's alone. */
export class DirUploads implements UploadBackend {
  readonly kind = "dir";

  constructor(private readonly dir: string) {
    makePrivateDir(dir);
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await writePrivateFile(join(this.dir, name), bytes);
  }

  async get(name: string): Promise<Blob | null> {
    const file = Bun.file(join(this.dir, name));
    return (await file.exists()) ? file : null;
  }

  async delete(name: string): Promise<void> {
    rmSync(join(this.dir, name), { force: true, recursive: true });
  }

  async list(): Promise<StoredUpload[]> {
    const stored: StoredUpload[] = [];
    for (const name of readdirSync(this.dir)) {
      try {
        stored.push({ name, createdAt: statSync(join(this.dir, name)).mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    }
    return stored;
  }
}

/**
 * S3-compatible object storage through Bun's built-in client, path-style (`<endpoint>/<bucket>/<name>`).
 * Every setting is passed explicitly: Bun would otherwise read S3_* / AWS_* from the environment by itself.
 * The bucket may hold other things: only names LinkPrev gives are ever listed (and so swept).
 */
export class S3Uploads implements UploadBackend {
  readonly kind = "s3";
  private readonly client: Bun.S3Client;

  constructor(settings: S3Settings) {
    this.client = new Bun.S3Client({
      endpoint: settings.endpoint,
      bucket: settings.bucket,
      region: settings.region,
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      virtualHostedStyle: false,
    });
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.client.write(name, bytes, { type: CONTENT_TYPE });
  }

  async get(name: string): Promise<Uint8Array<ArrayBuffer> | null> {
    try {
      return new Uint8Array(await this.client.file(name).arrayBuffer());
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    try {
      await this.client.delete(name);
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores say NoSuchKey.
      if (!isNoSuchKey(error)) throw error;
    }
  }

  async list(): Promise<StoredUpload[]> {
    const stored: StoredUpload[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.client.list({ maxKeys: 1000, ...(continuationToken ? { continuationToken } : {}) });
      for (const object of page.contents ?? []) {
        if (!STORED_NAME.test(object.key)) continue;
        const modified = object.lastModified ? Date.parse(object.lastModified) : Number.NaN;
        // Unknown age counts as newest: the sweep then keeps it rather than risk an upload in flight.
        stored.push({ name: object.key, createdAt: Number.isNaN(modified) ? Number.POSITIVE_INFINITY : modified });
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return stored;
  }
}

function isNoSuchKey(error: unknown): boolean {
  const e = error as { code?: string; name?: string };
  return e?.code === "NoSuchKey" || e?.code === "ERR_S3_FILE_NOT_FOUND";
}

/**
 * The most recently served uploads of a remote store, kept in this process up to `maxBytes`, each for at most
 * `maxAgeMs`: a deletion made on another node stops being served here within that time.
 */
export class HotUploads implements UploadBackend {
  private readonly entries = new Map<string, { bytes: Uint8Array<ArrayBuffer>; at: number }>();
  private bytes = 0;

  constructor(
    private readonly inner: UploadBackend,
    private readonly clock: Clock,
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly maxAgeMs = 60_000,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  /** Bytes held now (tests). */
  get heldBytes(): number {
    return this.bytes;
  }

  learn(name: string, bytes: Uint8Array<ArrayBuffer> | null): void {
    if (bytes) this.remember(name, bytes);
    else this.forget(name);
  }

  private forget(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    this.bytes -= entry.bytes.byteLength;
  }

  private remember(name: string, bytes: Uint8Array<ArrayBuffer>): void {
    this.forget(name);
    if (bytes.byteLength > this.maxBytes / 4) return;
    this.entries.set(name, { bytes, at: this.clock.now() });
    this.bytes += bytes.byteLength;
    // Map order is insertion order: the first entries are the least recently used.
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.inner.put(name, bytes);
    // A copy: the caller's buffer may be reused or transferred.
    this.remember(name, new Uint8Array(bytes));
  }

  async get(name: string): Promise<UploadBody | null> {
    const entry = this.entries.get(name);
    if (entry && this.clock.now() - entry.at < this.maxAgeMs) {
      // Most recently used goes last.
      this.entries.delete(name);
      this.entries.set(name, entry);
      return entry.bytes;
    }
    this.forget(name);
    const found = await this.inner.get(name);
    if (found instanceof Uint8Array) this.remember(name, found);
    return found;
  }

  async delete(name: string): Promise<void> {
    this.forget(name);
    await this.inner.delete(name);
  }

  list(): Promise<StoredUpload[]> {
    return this.inner.list();
  }
}

/**
 * The store UPLOADS_STORE names. `uploadsTable`: the platform's (PostgreSQL only: db/postgres/uploads.ts).
 * `relay`: an app worker's, so that the request thread (which serves /uploads) learns of every change; files need
 * none, the folder is what every thread reads. `clock`: how old a hot image is.
 */
export function openUploadBackend(
  config: Config,
  uploadsTable: Platform["uploads"],
  clock: Clock,
  relay?: UploadRelay,
): UploadBackend {
  const settings = config.uploads;
  if (settings.kind === "dir") return new DirUploads(settings.dir);
  let store: UploadBackend;
  if (settings.kind === "s3") store = new S3Uploads(settings);
  else if (uploadsTable) store = uploadsTable;
  else throw new Error("UPLOADS_STORE=db needs PostgreSQL (DATABASE_URL)");
  // Workers never serve /uploads: the hot-image cache is the request thread's, told of changes by the relay.
  return relay ? new RelayedUploads(store, relay) : new HotUploads(store, clock);
}
