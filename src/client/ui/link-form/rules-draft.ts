// The link editor's rules as typed (src/client/ui/link-form/RuleFields.tsx), checked with the server's own schema
// (src/rules/model.ts) and sent as the API's fields: an empty field removes that rule.
import { RulesInput, type Device } from "../../../rules/model.ts";
import type { LinkJson } from "../../../links/wire.ts";

/** `appUrl`: an ios or android rule's app (a custom scheme; docs/decisions/0060), the target its https fallback. */
export type RuleRow = { kind: "device" | "country"; value: string; targetUrl: string; appUrl?: string };
export type RulesDraft = {
  /** A datetime-local value (the browser's time zone), "" for none. */
  expiresAt: string;
  maxClicks: string;
  expiredUrl: string;
  /** A new password ("" keeps the current one, if any). */
  password: string;
  removePassword: boolean;
  rules: RuleRow[];
};
export type SavedRules = Pick<
  LinkJson,
  "expiresAt" | "maxClicks" | "visitsUsed" | "expiredUrl" | "hasPassword" | "rules"
>;

const pad = (n: number) => String(n).padStart(2, "0");
/** An instant as a datetime-local value in the browser's time zone. */
const localValue = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export function rulesDraftOf(saved: SavedRules | null): RulesDraft {
  return {
    expiresAt: saved?.expiresAt ? localValue(saved.expiresAt) : "",
    maxClicks: saved?.maxClicks !== null && saved?.maxClicks !== undefined ? String(saved.maxClicks) : "",
    expiredUrl: saved?.expiredUrl ?? "",
    password: "",
    removePassword: false,
    rules: (saved?.rules ?? []).map((rule) =>
      "device" in rule.when
        ? {
            kind: "device",
            value: rule.when.device,
            targetUrl: rule.targetUrl,
            ...(rule.appUrl && { appUrl: rule.appUrl }),
          }
        : { kind: "country", value: rule.when.country, targetUrl: rule.targetUrl },
    ),
  };
}

/** The API's fields for the draft. */
export function rulesFields(draft: RulesDraft): Record<string, string> {
  return {
    expiresAt:
      draft.expiresAt && !Number.isNaN(Date.parse(draft.expiresAt))
        ? new Date(draft.expiresAt).toISOString()
        : draft.expiresAt,
    maxClicks: draft.maxClicks.trim(),
    expiredUrl: draft.expiredUrl.trim(),
    rules: JSON.stringify(
      draft.rules.map((row) => ({
        when: row.kind === "device" ? { device: row.value as Device } : { country: row.value },
        targetUrl: row.targetUrl,
        ...(row.kind === "device" && row.appUrl && { appUrl: row.appUrl }),
      })),
    ),
    ...(draft.removePassword ? { password: "" } : draft.password ? { password: draft.password } : {}),
  };
}

/** The first message per field ("maxClicks", "rules.0.targetUrl", …), as the server would answer. */
export function rulesErrors(draft: RulesDraft): Record<string, string> {
  const checked = RulesInput.safeParse(rulesFields(draft));
  const errors: Record<string, string> = {};
  if (!checked.success)
    for (const issue of checked.error.issues) errors[issue.path.map(String).join(".")] ??= issue.message;
  return errors;
}
