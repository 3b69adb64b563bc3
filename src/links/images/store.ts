// Uploaded preview images: checked by content, normalised in a Worker, stored under DATA_DIR/uploads with a
// random name, and served from /uploads/<name> with long cache headers.
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { badRequest, tooLarge } from "../../http/errors.ts";
import { workerEntry } from "../../workers.ts";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./normalise.ts";
import { sniffImage } from "./sniff.ts";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UPLOADS_PREFIX = "/uploads/";
const STORED_NAME = /^[a-z0-9]{32}\.jpg$/;

export type StoredImage = { url: string; width: number; height: number };

export class ImageStore {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (jpeg: Uint8Array) => void; reject: (error: Error) => void }>();

  constructor(private readonly uploadsDir: string) {
    mkdirSync(uploadsDir, { recursive: true });
  }

  /** The Worker starts on the first upload, so a server that never receives one never loads the codecs. */
  private get processor(): Worker {
    if (!this.worker) {
      this.worker = new Worker(workerEntry("links/images/image.worker.ts"));
      this.worker.onmessage = (event: MessageEvent<{ id: number; jpeg?: Uint8Array; error?: string }>) => {
        const { id, jpeg, error } = event.data;
        const pending = this.pending.get(id);
        this.pending.delete(id);
        if (jpeg) pending?.resolve(jpeg);
        else pending?.reject(new Error(error));
      };
    }
    return this.worker;
  }

  /** Checks and normalises an upload; nothing is written yet. */
  async prepare(file: File): Promise<Uint8Array> {
    if (file.size > MAX_IMAGE_BYTES) throw tooLarge("File size must be less than 5MB");
    const bytes = await file.arrayBuffer();
    const kind = sniffImage(new Uint8Array(bytes, 0, Math.min(16, bytes.byteLength)));
    if (!kind) throw badRequest("Please select an image file", "image");
    const id = this.nextId++;
    const jpeg = new Promise<Uint8Array>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.processor.postMessage({ id, bytes, kind }, [bytes]);
    try {
      return await jpeg;
    } catch {
      // The header said image but the content did not decode.
      throw badRequest("Please select an image file", "image");
    }
  }

  async save(jpeg: Uint8Array): Promise<StoredImage> {
    const name = `${encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)))}.jpg`;
    await Bun.write(join(this.uploadsDir, name), jpeg);
    return { url: `${UPLOADS_PREFIX}${name}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT };
  }

  /** Removes a stored upload by its URL; other URLs (external images) are left alone. */
  remove(url: string | null): void {
    const name = url?.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : null;
    if (name && STORED_NAME.test(name)) rmSync(join(this.uploadsDir, name), { force: true });
  }

  /** GET /uploads/:name — a raw route like /go: crawlers fetch these right after the preview page. */
  async serve(name: string): Promise<Response> {
    const file = Bun.file(join(this.uploadsDir, STORED_NAME.test(name) ? name : "-"));
    if (!STORED_NAME.test(name) || !(await file.exists())) return new Response("Not found", { status: 404 });
    return new Response(file, {
      headers: {
        "Content-Type": "image/jpeg",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }

  /**
   * Removes stored files that no link refers to: left behind when the process died between writing an upload and
   * committing its link. Run at start, before any request, so no upload is in flight.
   */
  /** `graceMs`: uploads younger than this are kept (another node may be about to commit the link that uses one). */
  sweepOrphans(referencedUrls: Iterable<string>, graceMs = 0): number {
    const referenced = new Set(referencedUrls);
    const bornBefore = Date.now() - graceMs;
    let removed = 0;
    for (const name of readdirSync(this.uploadsDir)) {
      if (!referenced.has(`${UPLOADS_PREFIX}${name}`) && (graceMs === 0 || statSync(join(this.uploadsDir, name)).mtimeMs < bornBefore)) {
        rmSync(join(this.uploadsDir, name), { force: true, recursive: true });
        removed++;
      }
    }
    return removed;
  }

  close(): void {
    this.worker?.terminate();
  }
}
