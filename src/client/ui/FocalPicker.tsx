// The focal point of an uploaded image (docs/decisions/0009): click or tap the image, or focus it and use the arrow keys.
// The server cuts every rendition around this point (src/previews/variants.ts focalCrop); cropPosition turns that
// same crop into the CSS object-position the mockups draw it with, so the preview is the cut the server makes.
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import type { Focal } from "../../links/model.ts";
import { RENDITIONS, focalCrop, type RenditionId } from "../../previews/variants.ts";

/** One arrow key press moves the point this far (Shift: a tenth of it). */
const STEP = 0.05;
const clamp01 = (value: number) => Math.min(1, Math.max(0, Math.round(value * 1000) / 1000));
const percent = (value: number) => Math.round(value * 100);

/**
 * The object-position that makes an object-fit: cover box of `rendition`'s shape show exactly the server's crop of
 * a `width`×`height` source: cover leaves (source − crop) to hide, and the crop's offset is that share of it.
 */
export function cropPosition(width: number, height: number, rendition: RenditionId, focal: Focal): string {
  const { width: w, height: h } = RENDITIONS[rendition];
  const crop = focalCrop(width, height, w / h, focal.x, focal.y);
  const share = (offset: number, spare: number) => (spare > 0 ? (offset / spare) * 100 : 50);
  return `${share(crop.left, width - crop.width)}% ${share(crop.top, height - crop.height)}%`;
}

/** Render it with `key={src}`: a new image starts unbroken. */
export function FocalPicker({
  src,
  focal,
  onChange,
  onSize,
}: {
  src: string;
  focal: Focal;
  onChange: (focal: Focal) => void;
  onSize: (size: { width: number; height: number }) => void;
}) {
  // An image the page may not load (a page's image on plain http, which the CSP refuses) is still imported on save.
  const [broken, setBroken] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  const measure = (img: HTMLImageElement) =>
    img.naturalWidth > 0 ? onSize({ width: img.naturalWidth, height: img.naturalHeight }) : setBroken(true);
  // The server-rendered image may have loaded (or failed) before hydration, when no handler was listening yet.
  useEffect(() => {
    if (image.current?.complete) measure(image.current);
  }, []);
  const pick = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    onChange({
      x: clamp01((event.clientX - box.left) / box.width),
      y: clamp01((event.clientY - box.top) / box.height),
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? STEP / 10 : STEP;
    const move = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: clamp01(focal.x + move[0]!), y: clamp01(focal.y + move[1]!) });
  };
  if (broken)
    return (
      <p className="mt-3 text-sm text-gray-700" data-testid="focal-unavailable">
        This image cannot be shown here, so its focal point stays in the centre.
      </p>
    );
  return (
    <div className="mt-3">
      <p id="focal-hint" className="text-xs text-gray-600">
        Click the part of the image that must stay in every crop (or focus it and use the arrow keys).
      </p>
      <div
        role="slider"
        tabIndex={0}
        aria-label="Focal point"
        aria-describedby="focal-hint"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent(focal.x)}
        aria-valuetext={`${percent(focal.x)}% from the left, ${percent(focal.y)}% from the top`}
        data-testid="focal-picker"
        onClick={pick}
        onKeyDown={onKeyDown}
        className="relative mt-1 inline-block max-w-full cursor-crosshair touch-manipulation rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
      >
        <img
          ref={image}
          src={src}
          alt=""
          draggable={false}
          className="block max-h-64 max-w-full select-none rounded"
          onError={() => setBroken(true)}
          onLoad={(e) => measure(e.currentTarget)}
        />
        <span
          aria-hidden="true"
          data-testid="focal-marker"
          className="pointer-events-none absolute h-5 w-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-indigo-600/70 shadow"
          style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }}
        />
      </div>
    </div>
  );
}
