// A modal dialog for islands: focus moves in and is trapped, Escape closes it (unless it cannot be dismissed),
// and focus returns to where it was.
import { useLayoutEffect, useRef, type ReactNode } from "react";

type DialogProps = {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** Called on Escape or a click outside; omit for a dialog that cannot be dismissed. */
  onDismiss?: () => void;
  children: ReactNode;
};

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ open, title, description, onDismiss, children }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useRef(`dialog-${Math.random().toString(36).slice(2)}`).current;

  // A layout effect: focus moves in as the dialog appears (a Preact useEffect would wait a frame, and a key pressed
  // meanwhile would act on the page behind), and the element to return to is read before anything moved it.
  useLayoutEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const focusables = () => Array.from(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    (focusables()[0] ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && onDismiss) {
        event.preventDefault();
        onDismiss();
      } else if (event.key === "Tab") {
        const all = focusables();
        if (all.length === 0) return event.preventDefault();
        const first = all[0]!;
        const last = all[all.length - 1]!;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-black/50 p-4"
      onClick={(e) => e.target === e.currentTarget && onDismiss?.()}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl outline-none"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <div className="mt-2 text-sm text-gray-600">{description}</div>}
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

export const buttonClass = {
  primary:
    "rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:cursor-not-allowed disabled:opacity-50",
  secondary:
    "rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-50",
  danger: "rounded-md bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-500 disabled:opacity-50",
};
