// Flash toasts: set in a one-time cookie before a redirect, shown (and cleared) by the next page.
import { FLASH_COOKIE, type Toast } from "./flash-cookie.ts";

type CookieJar = Record<
  string,
  { value?: unknown; set: (options: Record<string, unknown>) => unknown; remove: () => unknown } | undefined
>;

export function setFlash(cookie: CookieJar, toast: Toast): void {
  cookie[FLASH_COOKIE]!.set({ value: toast, httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 });
}

export function takeFlash(cookie: CookieJar): Toast | null {
  const jar = cookie[FLASH_COOKIE];
  if (!jar?.value) return null;
  // Depending on the value Elysia hands back the decoded text or the parsed object.
  let value = jar.value as Partial<Toast> | string;
  jar.remove();
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as Partial<Toast>;
    } catch {
      return null;
    }
  }
  if (typeof value !== "object" || typeof value.title !== "string") return null;
  return {
    title: value.title,
    description: typeof value.description === "string" ? value.description : undefined,
    variant: value.variant === "destructive" ? "destructive" : "default",
  };
}
