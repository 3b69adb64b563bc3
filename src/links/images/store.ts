// Uploaded preview images: checked by content, normalised in a Worker, stored with a random name in the
// configured store (UPLOADS_STORE: DATA_DIR/uploads, S3-compatible storage or PostgreSQL; see backends.ts), and
// served from /uploads/<name> with long cache headers.
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import type { Clock } from "../../clock.ts";
import type { Logger } from "../../observability/log.ts";
import { AppError, badRequest, tooLarge } from "../../http/errors.ts";
import { RENDITIONS, RENDITION_IDS, type RenditionId } from "../../previews/variants.ts";
import type { Focal } from "../model.ts";
import type { Renditions } from "./normalise.ts";
import { CodecWorkers, RECYCLE_PIXELS, type Jobs } from "./codec-workers.ts";
import { jpegScans, MAX_JPEG_SCANS } from "./jpeg-scans.ts";
import type { PixelGate } from "./pixel-budget.ts";
import type { ImageWorkCounts } from "./work-counts.ts";
import { imageDimensions, pixelBudgetMessage, withinPixelBudget, type Dimensions } from "./dimensions.ts";
import { sniffImage, type ImageKind } from "./sniff.ts";
import { STORED_NAME, type UploadBackend, type UploadBody } from "./backends.ts";
import { MAX_IMAGE_BYTES } from "../model.ts";
export const UPLOADS_PREFIX = "/uploads/";

const SERVED_HEADERS = {
  "Content-Type": "image/jpeg",
  "Cache-Control": "public, max-age=31536000, immutable",
  "X-Content-Type-Options": "nosniff",
};

/** The uploaded file as it arrived (upright size, before cropping and scaling) — what the preview lint judges. */
export type SourceImage = { width: number; height: number; bytes: number };
/** A normalised upload, not yet stored: the kept source (bounded JPEG), its renditions, and the file as it arrived. */
export type PreparedImage = { kept: Uint8Array; renditions: Renditions; source: SourceImage };
/** Stored renditions: the URL of each, and the wide one's size in bytes (the preview lint judges it). */
export type StoredRenditions = { urls: Record<RenditionId, string>; wideBytes: number };
/** A stored upload: `url` is the wide rendition (what `imageUrl` has always been), `sourceUrl` the kept source. */
export type StoredImage = StoredRenditions & {
  url: string;
  width: number;
  height: number;
  bytes: number;
  sourceUrl: string;
  source: SourceImage;
};

const newName = () => `${encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)))}.jpg`;
/** The stored name behind an upload URL; null for any other URL. */
const storedName = (url: string | null) => {
  const name = url?.startsWith(UPLOADS_PREFIX) ? url.slice(UPLOADS_PREFIX.length) : null;
  return name && STORED_NAME.test(name) ? name : null;
};

/** An upload declaring more pixels than MAX_IMAGE_PIXELS / MAX_IMAGE_SIDE: refused from its header, never decoded. */
export class ImageTooLarge extends AppError {
  constructor(size: Dimensions) {
    super(400, pixelBudgetMessage(size), "image");
  }
}

/**
 * `gate`: the process's pixel budget; `deadlineMs`: how long one codec job may take; `counts`: where what the limits
 * refuse or end is counted; `recyclePixels`: the size over which a file is bounded on a Worker of its own (tests lower it).
 */
export type ImageWorkSettings = {
  gate: PixelGate;
  deadlineMs: number;
  counts: ImageWorkCounts;
  recyclePixels?: number;
  /** How old an upload is, for the sweep's grace. */
  clock: Clock;
  log: Logger;
};

export class ImageStore {
  private readonly gate: PixelGate;
  private readonly recyclePixels: number;
  private readonly workers: CodecWorkers;
  private readonly counts: ImageWorkCounts;
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(
    private readonly backend: UploadBackend,
    { gate, deadlineMs, counts, recyclePixels = RECYCLE_PIXELS, clock, log }: ImageWorkSettings,
  ) {
    this.clock = clock;
    this.log = log;
    this.gate = gate;
    this.recyclePixels = recyclePixels;
    this.counts = counts;
    this.workers = new CodecWorkers(deadlineMs, counts);
  }

  /** Codec Workers started so far (tests). */
  get workersStarted(): number {
    return this.workers.started;
  }

  /** Codec Workers running now (tests: a job past its deadline leaves none behind). */
  get workersAlive(): number {
    return this.workers.alive;
  }

  /** An app worker stored (bytes) or removed (null) this upload: the hot-image cache takes note. */
  learn(name: string, bytes: Uint8Array<ArrayBuffer> | null): void {
    this.backend.learn?.(name, bytes);
  }

  /** A codec job, once its decoded size (`pixels`) of the process's budget is free; a large one gets a Worker of its own. */
  private async run<K extends keyof Jobs & string>(
    job: K,
    payload: Jobs[K]["payload"] & { bytes: ArrayBuffer },
    pixels: number,
  ): Promise<Jobs[K]["reply"]> {
    const lease = await this.gate.acquire(pixels);
    try {
      return await this.workers.run(job, payload, pixels > this.recyclePixels);
    } finally {
      lease.release();
    }
  }

  /**
   * An upload's bytes, once its size, its kind and the size its header declares are within the limits: nothing has
   * reached a decoder yet. `pixels`: what decoding it will cost.
   */
  private async checked(file: File): Promise<{ bytes: ArrayBuffer; kind: ImageKind; pixels: number }> {
    if (file.size > MAX_IMAGE_BYTES) throw tooLarge("File size must be less than 5MB");
    const bytes = await file.arrayBuffer();
    const view = new Uint8Array(bytes);
    const kind = sniffImage(view.subarray(0, 16));
    const declared = kind ? imageDimensions(view, kind) : null;
    if (!kind || !declared || declared.width < 1 || declared.height < 1)
      throw badRequest("Please select an image file", "image");
    if (!withinPixelBudget(declared)) throw new ImageTooLarge(declared);
    if (kind === "jpeg" && jpegScans(view) > MAX_JPEG_SCANS) {
      this.counts.count("jpeg-scans");
      throw badRequest(`This JPEG has more than ${MAX_JPEG_SCANS} scans; save it again as a standard JPEG`, "image");
    }
    return { bytes, kind, pixels: declared.width * declared.height };
  }

  /** A QR code's logo from an upload, through the same checks as a card's image: a bounded PNG, transparency kept. */
  async prepareLogo(file: File): Promise<{ png: Uint8Array; width: number; height: number }> {
    const { bytes, kind, pixels } = await this.checked(file);
    try {
      return await this.run("logo", { bytes, kind }, pixels);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badRequest("Please select an image file", "image");
    }
  }

  /**
   * Checks and normalises an upload (renditions cut around `focal`), and measures its source; nothing is written
   * yet. Uploads, lint uploads and imports all come through here, so the size the header declares is checked
   * before any bytes reach a decoder.
   */
  async prepare(file: File, focal: Focal): Promise<PreparedImage> {
    const { bytes, kind, pixels } = await this.checked(file);
    const size = bytes.byteLength;
    try {
      const reply = await this.run("upload", { bytes, kind, focal }, pixels);
      return {
        kept: reply.source,
        renditions: reply.renditions,
        source: { width: reply.sourceWidth, height: reply.sourceHeight, bytes: size },
      };
    } catch (error) {
      // A full queue or a job past its deadline says so; otherwise the header said image but the content did not decode.
      if (error instanceof AppError) throw error;
      throw badRequest("Please select an image file", "image");
    }
  }

  /** Stores every file; should one fail, the others are removed again and the error stands. */
  private async putAll(files: Array<[string, Uint8Array]>): Promise<void> {
    const stored: string[] = [];
    try {
      for (const [name, bytes] of files) {
        await this.backend.put(name, bytes);
        stored.push(name);
      }
    } catch (error) {
      await this.removeAll(stored.map((name) => `${UPLOADS_PREFIX}${name}`));
      throw error;
    }
  }

  private async saveRenditions(
    renditions: Renditions,
    extra: Array<[string, Uint8Array]> = [],
  ): Promise<StoredRenditions> {
    const names = Object.fromEntries(RENDITION_IDS.map((id) => [id, newName()])) as Record<RenditionId, string>;
    await this.putAll([...extra, ...RENDITION_IDS.map((id) => [names[id], renditions[id]] as [string, Uint8Array])]);
    const urls = Object.fromEntries(RENDITION_IDS.map((id) => [id, `${UPLOADS_PREFIX}${names[id]}`])) as Record<
      RenditionId,
      string
    >;
    return { urls, wideBytes: renditions.wide.byteLength };
  }

  async save({ kept, renditions, source }: PreparedImage): Promise<StoredImage> {
    const sourceName = newName();
    const stored = await this.saveRenditions(renditions, [[sourceName, kept]]);
    const { width, height } = RENDITIONS.wide;
    return {
      ...stored,
      url: stored.urls.wide,
      width,
      height,
      bytes: stored.wideBytes,
      sourceUrl: `${UPLOADS_PREFIX}${sourceName}`,
      source,
    };
  }

  /**
   * New renditions of a kept source (its URL) for a new focal point, stored under new names (platforms cache
   * images by URL). Null when the source is gone from the store.
   */
  async rerender(sourceUrl: string, focal: Focal): Promise<StoredRenditions | null> {
    const name = storedName(sourceUrl);
    const body = name ? await this.backend.get(name) : null;
    if (!body) return null;
    const bytes = body instanceof Uint8Array ? body.slice().buffer : await body.arrayBuffer();
    // A kept source is a JPEG written here, its long side bounded (normalise.ts): within the budget by construction.
    const size = imageDimensions(new Uint8Array(bytes), "jpeg");
    const reply = await this.run("rerender", { bytes, focal }, size ? size.width * size.height : 0);
    return this.saveRenditions(reply.renditions);
  }

  /** remove() for each URL. */
  async removeAll(urls: Iterable<string | null>): Promise<void> {
    for (const url of urls) await this.remove(url);
  }

  /**
   * Removes a stored upload by its URL; other URLs (external images) are left alone. Never throws: the link
   * change it follows has happened, and an upload the store would not remove now is left for the start-up sweep.
   */
  async remove(url: string | null): Promise<void> {
    const name = storedName(url);
    if (!name) return;
    try {
      await this.backend.delete(name);
    } catch (error) {
      this.log.error(`Could not remove uploaded image ${name} (${this.backend.kind} store)`, error);
    }
  }

  /** GET /uploads/:name — a raw route like /go: crawlers fetch these right after the preview page. */
  async serve(name: string): Promise<Response> {
    if (!STORED_NAME.test(name)) return new Response("Not found", { status: 404 });
    let body: UploadBody | null;
    try {
      body = await this.backend.get(name);
    } catch (error) {
      this.log.error(`Could not read uploaded image ${name} (${this.backend.kind} store)`, error);
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
    const bornBefore = this.clock.now() - graceMs;
    let removed = 0;
    try {
      for (const { name, createdAt } of await this.backend.list()) {
        if (referenced.has(`${UPLOADS_PREFIX}${name}`) || (graceMs > 0 && createdAt >= bornBefore)) continue;
        await this.backend.delete(name);
        removed++;
      }
    } catch (error) {
      // A store that is down at start must not keep the node from serving; the next start sweeps again.
      this.log.error(`The sweep of unreferenced uploaded images stopped (${this.backend.kind} store)`, error);
    }
    return removed;
  }

  close(): void {
    this.workers.close();
  }
}
