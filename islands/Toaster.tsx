// One toast at a time, 5 s, swipe right past 50 px to dismiss, F8 focuses the region (SPEC §9).
import { useEffect, useRef, useState } from "react";
import { onToast, type Toast } from "../src/client/toast.ts";

const DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export default function Toaster({ initial }: { initial: Toast | null }) {
  const [current, setCurrent] = useState<(Toast & { key: number }) | null>(initial ? { ...initial, key: 0 } : null);
  const [offset, setOffset] = useState(0);
  const region = useRef<HTMLOListElement>(null);
  const counter = useRef(1);

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
    if (!current) return;
    setOffset(0);
    const timer = setTimeout(() => setCurrent(null), DURATION_MS);
    return () => clearTimeout(timer);
  }, [current]);

  // The swipe is followed on the window, so that a fast pointer leaving the toast still ends it.
  const startSwipe = (startX: number) => {
    const move = (e: PointerEvent) => setOffset(Math.max(0, e.clientX - startX));
    const end = (e: PointerEvent) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
      // Measured from the event itself: the last move may not have been rendered yet.
      if (e.type === "pointerup" && e.clientX - startX > SWIPE_THRESHOLD_PX) setCurrent(null);
      else setOffset(0);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  };

  const destructive = current?.variant === "destructive";
  return (
    <ol
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="fixed top-0 right-0 z-50 flex max-h-screen w-full flex-col p-4 outline-none md:max-w-[420px]"
    >
      {current && (
        <li
          key={current.key}
          role={destructive ? "alert" : "status"}
          aria-live={destructive ? "assertive" : "polite"}
          data-testid="toast"
          style={{ transform: `translateX(${offset}px)`, touchAction: "pan-y" }}
          className={`relative rounded-md border p-4 pr-10 shadow-lg ${destructive ? "border-red-600 bg-red-600 text-white" : "border-gray-200 bg-white text-gray-900"}`}
          onPointerDown={(e) => startSwipe(e.clientX)}
        >
          <p className="text-sm font-semibold">{current.title}</p>
          {current.description && <p className="text-sm opacity-90">{current.description}</p>}
          <button type="button" aria-label="Dismiss notification" className="absolute top-2 right-2 rounded px-2 opacity-70 hover:opacity-100" onClick={() => setCurrent(null)}>
            ×
          </button>
        </li>
      )}
    </ol>
  );
}
