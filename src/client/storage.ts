// Session-storage keys that survive the sign-in redirect.
export const SELECTED_PLAN_KEY = "linkprev.selectedPlan";
export const VAT_INFO_KEY = "linkprev.vatInfo";

export type StoredVatInfo = { countryCode: string; vatNumber: string; isValid: boolean; companyName?: string | null };

export function readSession<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function writeSession(key: string, value: unknown | null): void {
  if (value === null) sessionStorage.removeItem(key);
  else sessionStorage.setItem(key, JSON.stringify(value));
}
