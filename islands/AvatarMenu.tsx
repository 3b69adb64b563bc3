// The signed-in user's menu in the top bar: keyboard operable (arrows, Home/End, typeahead, Escape).
import { useLayoutEffect, useRef, useState } from "react";

export type AvatarMenuProps = {
  initials: string;
  profileImageUrl: string | null;
  displayName: string;
  subscription: { planName: string; statusLabel: string } | null;
  hasValidSubscription: boolean;
};

const TYPEAHEAD_RESET_MS = 1000;

export default function AvatarMenu({
  initials,
  profileImageUrl,
  displayName,
  subscription,
  hasValidSubscription,
}: AvatarMenuProps) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const typed = useRef({ text: "", at: 0 });
  /** Which item takes focus as the menu opens: ArrowUp on the button opens it at the last one. */
  const firstFocus = useRef<"first" | "last">("first");

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  // A layout effect, not useEffect: in the browser (Preact) an effect runs only after the next frame, and a key
  // pressed before it would land on the button, or the late focus would move away from an item already chosen
  // (Enter on 'Sign out' then followed 'Dashboard'). Focus moves as the menu appears.
  useLayoutEffect(() => {
    if (!open) return;
    focusItem(firstFocus.current === "last" ? -1 : 0);
    const closeOnOutside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    return () => document.removeEventListener("pointerdown", closeOnOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKey = (event: React.KeyboardEvent) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown") focusItem(index + 1);
    else if (event.key === "ArrowUp") focusItem(index - 1);
    else if (event.key === "Home") focusItem(0);
    else if (event.key === "End") focusItem(all.length - 1);
    else if (event.key === "Escape") close();
    else if (event.key === "Tab") setOpen(false);
    else if (event.key.length === 1 && /\S/.test(event.key)) {
      const now = Date.now();
      typed.current = {
        text: (now - typed.current.at > TYPEAHEAD_RESET_MS ? "" : typed.current.text) + event.key.toLowerCase(),
        at: now,
      };
      const match = all.findIndex((item) => item.textContent?.trim().toLowerCase().startsWith(typed.current.text));
      if (match >= 0) focusItem(match);
    } else return;
    event.preventDefault();
  };

  return (
    <div className="relative">
      <button
        ref={button}
        data-toast-avoid
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        // The name starts with what the button shows (its initials), so that saying what one sees works (WCAG 2.5.3).
        aria-label={
          profileImageUrl ? `Account menu for ${displayName}` : `${initials}, account menu for ${displayName}`
        }
        className="flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-indigo-600 text-sm font-semibold text-white"
        onClick={() => {
          firstFocus.current = "first";
          setOpen(!open);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp" || e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            firstFocus.current = e.key === "ArrowUp" ? "last" : "first";
            setOpen(true);
          }
        }}
      >
        {profileImageUrl ? (
          <img src={profileImageUrl} alt="" width={36} height={36} referrerPolicy="no-referrer" />
        ) : (
          initials
        )}
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-40 mt-2 w-64 rounded-md border border-gray-200 bg-white p-2 shadow-lg"
        >
          <p className="truncate px-2 py-1 text-sm font-semibold">{displayName}</p>
          <div className="mx-2 my-2 rounded border border-gray-100 bg-gray-50 p-2 text-xs text-gray-600">
            {subscription ? (
              <>
                <span className="font-semibold text-gray-900">{subscription.planName}</span> ·{" "}
                {subscription.statusLabel}
              </>
            ) : (
              "No active subscription"
            )}
          </div>
          <a
            role="menuitem"
            tabIndex={-1}
            href="/admin"
            className="block rounded px-2 py-1.5 text-sm hover:bg-gray-100 focus:bg-gray-100"
          >
            Dashboard
          </a>
          <a
            role="menuitem"
            tabIndex={-1}
            href="/pricing"
            className="block rounded px-2 py-1.5 text-sm hover:bg-gray-100 focus:bg-gray-100"
          >
            {hasValidSubscription ? "Manage subscription" : "Get subscription"}
          </a>
          <a
            role="menuitem"
            tabIndex={-1}
            href="/api/auth/logout"
            className="block rounded px-2 py-1.5 text-sm hover:bg-gray-100 focus:bg-gray-100"
          >
            Sign out
          </a>
        </div>
      )}
    </div>
  );
}
