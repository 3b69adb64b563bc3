// Where a toast goes: a corner of the window that covers nothing marked `data-toast-avoid` (the editor's preview,
// the avatar menu) nor the field being edited, so a message never hides what the user is working on. Tried in order: bottom right (the
// usual place), bottom left, top right, top left; when every corner covers something, the one that covers least.
import { useLayoutEffect, useState, type RefObject } from "react";

export type Corner = { vertical: "top" | "bottom"; horizontal: "left" | "right" };

const CORNERS: Corner[] = [
  { vertical: "bottom", horizontal: "right" },
  { vertical: "bottom", horizontal: "left" },
  { vertical: "top", horizontal: "right" },
  { vertical: "top", horizontal: "left" },
];

type Box = { left: number; top: number; right: number; bottom: number };

const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/** The first corner where a toast of this size covers none of `avoid`, else the one covering the least. */
export function chooseCorner(
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  avoid: Box[],
): Corner {
  let best = CORNERS[0]!;
  let bestCovered = Number.POSITIVE_INFINITY;
  for (const corner of CORNERS) {
    const left = corner.horizontal === "left" ? 0 : viewport.width - size.width;
    const top = corner.vertical === "top" ? 0 : viewport.height - size.height;
    const box = { left, top, right: left + size.width, bottom: top + size.height };
    const covered = avoid.reduce((sum, b) => sum + overlap(box, b), 0);
    if (covered === 0) return corner;
    if (covered < bestCovered) [best, bestCovered] = [corner, covered];
  }
  return best;
}

/** The corner for the region while `showing`, chosen again when the page scrolls or the window changes size. */
export function useToastCorner(region: RefObject<HTMLElement | null>, showing: unknown): Corner {
  const [corner, setCorner] = useState<Corner>(CORNERS[0]!);
  useLayoutEffect(() => {
    if (!showing) return;
    const place = () => {
      const rect = region.current?.getBoundingClientRect();
      if (!rect) return;
      const editing = document.activeElement?.matches("input, textarea, select") ? [document.activeElement] : [];
      const avoid = [...document.querySelectorAll("[data-toast-avoid]"), ...editing].map((element) =>
        element.getBoundingClientRect(),
      );
      setCorner(
        chooseCorner(
          { width: rect.width, height: rect.height },
          { width: window.innerWidth, height: window.innerHeight },
          avoid,
        ),
      );
    };
    place();
    window.addEventListener("scroll", place, { passive: true });
    window.addEventListener("resize", place);
    return () => {
      window.removeEventListener("scroll", place);
      window.removeEventListener("resize", place);
    };
  }, [showing]);
  return corner;
}
