// Image codecs as WebAssembly (@jsquash): they run under Bun *and* inside a compiled binary, where sharp's
// native module cannot load. The .wasm files are embedded as files and compiled once per Worker.
import jpegDecWasm from "../../../node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm" with { type: "file" };
import jpegEncWasm from "../../../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm" with { type: "file" };
// @ts-expect-error Bun gives the embedded file's path; the package types this .wasm as its wasm-bindgen module
import pngWasm from "../../../node_modules/@jsquash/png/codec/pkg/squoosh_png_bg.wasm" with { type: "file" };
import webpDecWasm from "../../../node_modules/@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };
// @ts-expect-error Bun gives the embedded file's path; the package types this .wasm as its wasm-bindgen module
import resizeWasm from "../../../node_modules/@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm" with {
  type: "file",
};
import decodeJpeg, { init as initJpegDecode } from "@jsquash/jpeg/decode";
import encodeJpeg, { init as initJpegEncode } from "@jsquash/jpeg/encode";
import decodePng, { init as initPngDecode } from "@jsquash/png/decode";
import encodePng, { init as initPngEncode } from "@jsquash/png/encode";
import decodeWebp, { init as initWebpDecode } from "@jsquash/webp/decode";
import resize, { initResize } from "@jsquash/resize";

// The codecs hand back ImageData, which Bun does not define outside a browser.
class ImageDataPolyfill {
  constructor(
    readonly data: Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
  ) {}
}
(globalThis as { ImageData?: unknown }).ImageData ??= ImageDataPolyfill;

const compile = async (path: string) => WebAssembly.compile(await Bun.file(path).arrayBuffer());

/** Emscripten modules take a compiled module through instantiateWasm. */
const emscriptenInit = (module: WebAssembly.Module) => ({
  instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
    void WebAssembly.instantiate(module, imports).then(done);
    return {};
  },
});

let ready: Promise<void> | null = null;
let pngReady: Promise<void> | null = null;

/** The PNG codec alone (a QR code needs no other); decode and encode share one module. */
export function loadPngCodec(): Promise<void> {
  pngReady ??= compile(pngWasm).then(async (png) => {
    await Promise.all([initPngDecode(png), initPngEncode(png)]);
  });
  return pngReady;
}

export function loadCodecs(): Promise<void> {
  ready ??= (async () => {
    const [jpegDec, jpegEnc, webpDec, resizer] = await Promise.all([
      compile(jpegDecWasm),
      compile(jpegEncWasm),
      compile(webpDecWasm),
      compile(resizeWasm),
    ]);
    await Promise.all([
      initJpegDecode(emscriptenInit(jpegDec) as never),
      initJpegEncode(emscriptenInit(jpegEnc) as never),
      loadPngCodec(),
      initWebpDecode(emscriptenInit(webpDec) as never),
      initResize(resizer),
    ]);
  })();
  return ready;
}

export { decodeJpeg, decodePng, decodeWebp, encodeJpeg, encodePng, resize };
