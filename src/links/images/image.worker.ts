// Decoding, cropping and encoding take ~0.5 s per image: done here so that an upload never stalls a redirect.
import { normaliseImage } from "./normalise.ts";
import type { ImageKind } from "./sniff.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ id: number; bytes: ArrayBuffer; kind: ImageKind }>) => {
  const { id, bytes, kind } = event.data;
  try {
    const { jpeg, sourceWidth, sourceHeight } = await normaliseImage(bytes, kind);
    self.postMessage({ id, jpeg, sourceWidth, sourceHeight }, [jpeg.buffer]);
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};
