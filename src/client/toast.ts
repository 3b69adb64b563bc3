// In the browser: any island raises a toast; the Toaster island shows it. Toasts raised before the Toaster's
// chunk has loaded wait in a queue.
export type Toast = { title: string; description?: string; variant?: "default" | "destructive" };

const EVENT = "linkprev:toast";
type Queue = { __linkprevToasts?: Toast[] };

export function toast(next: Toast): void {
  ((window as Queue).__linkprevToasts ??= []).push(next);
  window.dispatchEvent(new CustomEvent(EVENT));
}

/** For the Toaster: calls `show` with every toast raised so far and from now on. */
export function onToast(show: (toast: Toast) => void): () => void {
  const drain = () => {
    const queue = ((window as Queue).__linkprevToasts ??= []);
    while (queue.length) show(queue.shift()!);
  };
  drain();
  window.addEventListener(EVENT, drain);
  return () => window.removeEventListener(EVENT, drain);
}
