// Uploaded preview images: checked by content, normalised in a Worker, stored with a random name in the
// configured store (UPLOADS_STORE: DATA_DIR/uploads, S3-compatible storage or PostgreSQL; see backends.ts), and
// served from /uploads/<name> with long cache headers.
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { badRequest, tooLarge } from "../../http/errors.ts";
import { workerEntry } from "../../workers.ts";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./normalise.ts";
import { sniffImage } from "./sniff.ts";
import { STORED_NAME, type UploadBackend, type UploadBody } from "./backends.ts";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UPLOADS_PREFIX = "/uploads/";

const SERVED_HEADERS = {
  "Content-Type": "image/jpeg",
  "Cache-Control": "public, max-age=31536000, immutable",
  "X-Content-Type-Options": "nosniff",
};

/** The uploaded file as it arrived (upright size, before cropping and scaling) — what the preview lint judges. */
export type SourceImage = { width: number; height: number; bytes: number };
/** A normalised upload, not yet stored: the JPEG and its source. */
export type PreparedImage = { jpeg: Uint8Array; source: SourceImage };
export type StoredImage = { url: string; width: number; height: number; bytes: number; source: SourceImage };

type WorkerReply = { id: number; jpeg?: Uint8Array; sourceWidth?: number; sourceHeight?: number; error?: string };

export class ImageStore {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();

  constructor(private readonly backend: UploadBackend) {}

  /** An app worker stored (bytes) or removed (null) this upload: the hot-image cache takes note. */
  learn(name: string, bytes: Uint8Array<ArrayBuffer> | null): void {
    this.backend.learn?.(name, bytes);
  }

  /** The Worker starts on the first upload, so a server that never receives one never loads the codecs. */
  private get processor(): Worker {
    if (!this.worker) {
      this.worker = new Worker(workerEntry("links/images/image.worker.ts"));
      this.worker.onmessage = (event: MessageEvent<WorkerReply>) => {
        const { id, jpeg, error } = event.data;
        const pending = this.pending.get(id);
        this.pending.delete(id);
        if (jpeg) pending?.resolve(event.data);
        else pending?.reject(new Error(error));
      };
    }
    return this.worker;
  }

  /** Checks and normalises an upload, and measures its source; nothing is written yet. */
  async prepare(file: File): Promise<PreparedImage> {
    if (file.size > MAX_IMAGE_BYTES) throw tooLarge("File size must be less than 5MB");
    const bytes = await file.arrayBuffer();
    const kind = sniffImage(new Uint8Array(bytes, 0, Math.min(16, bytes.byteLength)));
    if (!kind) throw badRequest("Please select an image file", "image");
    const id = this.nextId++;
    const size = bytes.byteLength;
    const reply = new Promise<WorkerReply>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.processor.postMessage({ id, bytes, kind }, [bytes]);
    try {
      const { jpeg, sourceWidth, sourceHeight } = await reply;
      return { jpeg: jpeg!, source: { width: sourceWidth!, height: sourceHeight!, bytes: size } };
    } catch {
      // The header said image but the content did not decode.
      throw badRequest("Please select an image file", "image");
    }
  }

  async save({ jpeg, source }: PreparedImage): Promise<StoredImage> {
    const name = `${encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)))}.jpg`;
    await this.backend.put(name, jpeg);
    return { url: `${UPLOADS_PREFIX}${name}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT, bytes: jpeg.byteLength, source };
  }

  /**
   * Removes a stored upload by its URL; other URLs (external images) are left alone. Never throws: the link
   * change it follows has happened, and an upload the store would not remove now is left for the start-up sweep.
   */
  async remove(url: string | null): Promise<void> {
    const name = url?.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : null;
    if (!name || !STORED_NAME.test(name)) return;
    try {
      await this.backend.delete(name);
    } catch (error) {
      console.error(`Could not remove uploaded image ${name} (${this.backend.kind} store): ${String(error)}`);
    }
  }

  /** GET /uploads/:name — a raw route like /go: crawlers fetch these right after the preview page. */
  async serve(name: string): Promise<Response> {
    if (!STORED_NAME.test(name)) return new Response("Not found", { status: 404 });
    let body: UploadBody | null;
    try {
      body = await this.backend.get(name);
    } catch (error) {
      console.error(`Could not read uploaded image ${name} (${this.backend.kind} store): ${String(error)}`);
      return new Response("Image store unavailable", { status: 503, headers: { "Retry-After": "5" } });
    }
    if (!body) return new Response("Not found", { status: 404 });
    return new Response(body, { headers: SERVED_HEADERS });
  }

  /**
   * Removes stored uploads that no link refers to: left behind when a process died between storing an upload
   * and committing its link, or when a store would not delete at the time. Run at start, before any request.
   * `graceMs`: uploads younger than this are kept (another node may be about to commit the link that uses one).
   */
  async sweepOrphans(referencedUrls: Iterable<string>, graceMs = 0): Promise<number> {
    const referenced = new Set(referencedUrls);
    const bornBefore = Date.now() - graceMs;
    let removed = 0;
    try {
      for (const { name, createdAt } of await this.backend.list()) {
        if (referenced.has(`${UPLOADS_PREFIX}${name}`) || (graceMs > 0 && createdAt >= bornBefore)) continue;
        await this.backend.delete(name);
        removed++;
      }
    } catch (error) {
      // A store that is down at start must not keep the node from serving; the next start sweeps again.
      console.error(`The sweep of unreferenced uploaded images stopped (${this.backend.kind} store): ${String(error)}`);
    }
    return removed;
  }

  close(): void {
    this.worker?.terminate();
  }
}
