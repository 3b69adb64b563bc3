// In the browser: any island raises a toast; the Toaster island shows it. Toasts raised before the Toaster's
// chunk has loaded wait in a queue.
import type { Toast } from "../http/flash-cookie.ts";

export type { Toast };

const EVENT = "linkprev:toast";
type Queue = { __linkprevToasts?: Toast[] };

export function toast(next: Toast): void {
  ((window as Queue).__linkprevToasts ??= []).push(next);
  window.dispatchEvent(new CustomEvent(EVENT));
}

const AFTER_NAVIGATION_KEY = "linkprev.toast";

/** A toast for the next page: for actions that end by navigating (save, then back to /admin). */
export function toastAfterNavigation(next: Toast): void {
  sessionStorage.setItem(AFTER_NAVIGATION_KEY, JSON.stringify(next));
}

/** For the Toaster: calls `show` with every toast raised so far (this page's and the previous page's) and from now on. */
export function onToast(show: (toast: Toast) => void): () => void {
  const carried = sessionStorage.getItem(AFTER_NAVIGATION_KEY);
  if (carried) {
    sessionStorage.removeItem(AFTER_NAVIGATION_KEY);
    try {
      show(JSON.parse(carried) as Toast);
    } catch {
      // a damaged entry is dropped
    }
  }
  const drain = () => {
    const queue = ((window as Queue).__linkprevToasts ??= []);
    while (queue.length) show(queue.shift()!);
  };
  drain();
  window.addEventListener(EVENT, drain);
  return () => window.removeEventListener(EVENT, drain);
}
