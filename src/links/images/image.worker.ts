// Decoding, cropping and encoding take ~0.5–1.5 s per image: done here so that an upload never stalls a redirect.
import type { Focal } from "../model.ts";
import { normaliseImage, normaliseLogo, rerender, type Normalised, type Renditions } from "./normalise.ts";
import { serveParent, transfer } from "../../threads/rpc.ts";
import type { ImageKind } from "./sniff.ts";

declare const self: Worker;

export type ImageWorkerProtocol = {
  worker: {
    /** A new file (any supported kind): the kept source, its renditions and its upright size. */
    upload: { payload: { bytes: ArrayBuffer; kind: ImageKind; focal: Focal }; reply: Normalised };
    /** A kept source cut again for a new focal point. */
    rerender: { payload: { bytes: ArrayBuffer; focal: Focal }; reply: { renditions: Renditions } };
    /** A QR code's logo (src/links/qr-logo.ts): a bounded PNG with its transparency. */
    logo: {
      payload: { bytes: ArrayBuffer; kind: ImageKind };
      reply: { png: Uint8Array; width: number; height: number };
    };
  };
  parent: {};
  notices: {};
};

const buffersOf = (renditions: Renditions) => Object.values(renditions).map((bytes) => bytes.buffer as ArrayBuffer);

serveParent<ImageWorkerProtocol>(self, {
  upload: async ({ bytes, kind, focal }) => {
    const result = await normaliseImage(bytes, kind, focal);
    return transfer(result, [...buffersOf(result.renditions), result.source.buffer as ArrayBuffer]);
  },
  logo: async ({ bytes, kind }) => {
    const logo = await normaliseLogo(bytes, kind);
    return transfer(logo, [logo.png.buffer as ArrayBuffer]);
  },
  rerender: async ({ bytes, focal }) => {
    const renditions = await rerender(bytes, focal);
    return transfer({ renditions }, buffersOf(renditions));
  },
});
