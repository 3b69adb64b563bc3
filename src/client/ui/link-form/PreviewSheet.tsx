// The editor's live preview. Beside the form on wide screens; on a phone it would sit below every field, out of
// sight while typing, so there a "Show preview" button stays at the bottom of the screen and opens the preview as
// a sheet over the lower part of the page, the fields above it scrolling clear of it (scroll padding, and room
// below the page).
import { useEffect, useState, type ReactNode } from "react";

/** The sheet's height: the upper half of the screen stays for the field being typed in. */
const SHEET = "45vh";
const WIDE = "(min-width: 1024px)"; // Tailwind's lg, where the preview is beside the form

export function PreviewSheet({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const on = open && !window.matchMedia(WIDE).matches;
    document.documentElement.style.scrollPaddingBottom = on ? `calc(${SHEET} + 1rem)` : "";
    document.body.style.paddingBottom = on ? SHEET : "";
    // The field being typed in stays in sight above the sheet.
    const field = document.activeElement;
    if (on && field instanceof HTMLElement && field.matches("input, textarea, select"))
      field.scrollIntoView({ block: "nearest" });
  }, [open]);
  const sheet =
    "max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-30 max-lg:overflow-y-auto max-lg:border-t max-lg:border-gray-200 max-lg:bg-white max-lg:px-4 max-lg:pt-3 max-lg:pb-16 max-lg:shadow-2xl";
  return (
    <>
      <section
        id="link-preview"
        aria-labelledby="preview-title-heading"
        data-toast-avoid
        className={open ? sheet : undefined}
        style={open ? { maxHeight: SHEET } : undefined}
      >
        <h2 id="preview-title-heading" className="text-sm font-medium">
          Preview
        </h2>
        {children}
      </section>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="link-preview"
        onClick={() => setOpen(!open)}
        className="fixed right-3 bottom-3 z-40 rounded-full bg-gray-900 px-4 py-2 text-sm font-semibold text-white shadow-lg lg:hidden"
      >
        {open ? "Hide preview" : "Show preview"}
      </button>
    </>
  );
}
