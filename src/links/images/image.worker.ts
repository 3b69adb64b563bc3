// Decoding, cropping and encoding take ~0.5–1.5 s per image: done here so that an upload never stalls a redirect.
import type { Focal } from "../model.ts";
import { normaliseImage, rerender } from "./normalise.ts";
import type { ImageKind } from "./sniff.ts";

declare const self: Worker;

/** "upload": a new file (any supported kind); "rerender": a kept source cut again for a new focal point. */
export type ImageJob = { id: number; job: "upload"; bytes: ArrayBuffer; kind: ImageKind; focal: Focal } | { id: number; job: "rerender"; bytes: ArrayBuffer; focal: Focal };

self.onmessage = async (event: MessageEvent<ImageJob>) => {
  const message = event.data;
  try {
    const result = message.job === "upload" ? await normaliseImage(message.bytes, message.kind, message.focal) : { renditions: await rerender(message.bytes, message.focal) };
    const transfer = [...Object.values(result.renditions), ...("source" in result ? [result.source] : [])].map((bytes) => bytes.buffer as ArrayBuffer);
    self.postMessage({ id: message.id, ...result }, transfer);
  } catch (error) {
    self.postMessage({ id: message.id, error: String(error) });
  }
};
