// One toast at a time, 5 s, swipe right past 50 px to dismiss, F8 focuses the region; placed in a corner that
// hides nothing the user works on (src/client/toast-placement.ts).
import { useEffect, useRef, useState } from "react";
import { onToast, type Toast } from "../src/client/toast.ts";
import { useToastCorner } from "../src/client/toast-placement.ts";

const DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export default function Toaster({ initial }: { initial: Toast | null }) {
  const [current, setCurrent] = useState<(Toast & { key: number }) | null>(initial ? { ...initial, key: 0 } : null);
  const [offset, setOffset] = useState(0);
  const region = useRef<HTMLOListElement>(null);
  const counter = useRef(1);
  const swipe = useRef<{ pointerId: number; startX: number } | null>(null);

  useEffect(() => onToast((next) => setCurrent({ ...next, key: counter.current++ })), []);

  useEffect(() => {
    const focusRegion = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener("keydown", focusRegion);
    return () => window.removeEventListener("keydown", focusRegion);
  }, []);

  useEffect(() => {
    // A swipe under way belonged to the toast that just went.
    swipe.current = null;
    if (!current) return;
    setOffset(0);
    const timer = setTimeout(() => setCurrent(null), DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);

  // A swipe is followed on the toast itself, which captures the pointer: a fast pointer leaving the toast still
  // ends it there. Only pointerup past the threshold dismisses; pointercancel (the browser took the gesture over,
  // e.g. as a scroll) and a lost capture put the toast back.
  const startSwipe = (event: React.PointerEvent<HTMLLIElement>) => {
    if (!event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    // The Dismiss button keeps its own click (a captured pointer would send the click to the toast instead).
    if ((event.target as Element).closest("button, a, input, select, textarea")) return;
    // No text selection and no native drag-and-drop of the toast's text: either would end the swipe with a
    // pointercancel in Chromium instead of a pointerup.
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    swipe.current = { pointerId: event.pointerId, startX: event.clientX };
  };

  const moveSwipe = (event: React.PointerEvent<HTMLLIElement>) => {
    const active = swipe.current;
    if (active?.pointerId === event.pointerId) setOffset(Math.max(0, event.clientX - active.startX));
  };

  const endSwipe = (event: React.PointerEvent<HTMLLIElement>) => {
    const active = swipe.current;
    if (active?.pointerId !== event.pointerId) return;
    swipe.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
    // Measured from the event itself: the last move may not have been rendered yet.
    if (event.type === "pointerup" && event.clientX - active.startX > SWIPE_THRESHOLD_PX) setCurrent(null);
    else setOffset(0);
  };

  const corner = useToastCorner(region, current);
  const destructive = current?.variant === "destructive";
  // The region lets clicks through to what is under it; only a toast itself takes the pointer.
  return (
    <ol
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      data-corner={`${corner.vertical}-${corner.horizontal}`}
      style={{ [corner.vertical]: 0, [corner.horizontal]: 0 }}
      className="pointer-events-none fixed z-50 flex max-h-screen w-full flex-col p-4 outline-none md:max-w-[420px]"
    >
      {current && (
        <li
          key={current.key}
          data-testid="toast"
          style={{ transform: `translateX(${offset}px)`, touchAction: "pan-y" }}
          className={`pointer-events-auto relative rounded-md border p-4 pr-10 shadow-lg select-none ${destructive ? "border-red-700 bg-red-700 text-white" : "border-gray-200 bg-white text-gray-900"}`}
          onPointerDown={startSwipe}
          onPointerMove={moveSwipe}
          onPointerUp={endSwipe}
          onPointerCancel={endSwipe}
          onLostPointerCapture={endSwipe}
        >
          {/* The message is the live region (an alert when destructive); the list item stays a list item. */}
          <div
            role={destructive ? "alert" : "status"}
            aria-live={destructive ? "assertive" : "polite"}
            aria-atomic="true"
          >
            <p className="text-sm font-semibold">{current.title}</p>
            {current.description && (
              <p className={`text-sm ${destructive ? "" : "text-gray-700"}`}>{current.description}</p>
            )}
          </div>
          <button
            type="button"
            aria-label="Dismiss notification"
            className={`absolute top-2 right-2 rounded px-2 ${destructive ? "text-white" : "text-gray-600 hover:text-gray-900"}`}
            onClick={() => setCurrent(null)}
          >
            ×
          </button>
        </li>
      )}
    </ol>
  );
}
