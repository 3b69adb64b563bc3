// The link editor's rules: when the link expires (a date, a number of people), a password, and other targets by
// device or country. Crawlers get the card whatever the rules say; the fields say so.
import { useEffect, useState } from "react";
import { DEVICES, MAX_RULES } from "../../../rules/model.ts";
import { buttonClass } from "../Dialog.tsx";
import { FieldError, inputClass } from "./fields.tsx";
import type { RuleRow, RulesDraft } from "./rules-draft.ts";

type Props = {
  draft: RulesDraft;
  onDraft: (draft: RulesDraft) => void;
  errors: Record<string, string>;
  hasPassword: boolean;
  /** Why the saved link no longer sends people on ("Expired", "3 of 3 visits used"; src/rules/model.ts), or null. */
  expired: string | null;
};

export function RuleFields({ draft, onDraft, errors, hasPassword, expired }: Props) {
  const set = (patch: Partial<RulesDraft>) => onDraft({ ...draft, ...patch });
  const setRow = (index: number, patch: Partial<RuleRow>) =>
    set({ rules: draft.rules.map((row, i) => (i === index ? { ...row, ...patch } : row)) });
  const text = (id: "expiredUrl" | "maxClicks", label: string, hint: string, type = "text") => (
    <div className="mt-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={draft[id]}
        aria-invalid={Boolean(errors[id])}
        aria-describedby={`${id}-error`}
        onChange={(e) => set({ [id]: (e.target as HTMLInputElement).value })}
        className={inputClass(Boolean(errors[id]))}
      />
      <p className="mt-1 text-xs text-gray-500">{hint}</p>
      <FieldError id={`${id}-error`} message={errors[id]} />
    </div>
  );
  // The browser's zone, which the date and time are read in; known only in the browser (the server draws none).
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const open = Boolean(draft.expiresAt || draft.maxClicks || draft.expiredUrl || hasPassword || draft.rules.length);
  return (
    <details
      id="link-rules"
      open={open || Object.keys(errors).length > 0}
      className="rounded-md border border-gray-200 p-3"
    >
      <summary className="cursor-pointer text-sm font-medium">
        Expiry, password and targets
        {expired && (
          <span
            className="ml-2 rounded-full bg-gray-200 px-2 py-0.5 text-xs font-medium text-gray-800"
            data-testid="editor-expired"
          >
            {expired}
          </span>
        )}
      </summary>
      {expired && (
        <p className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-amber-900" role="status">
          {`${expired}: people no longer reach the target; they get the "When expired" address or a "This link has expired" page. Move the expiry later or raise the maximum visits to make it live again.`}
        </p>
      )}
      <p className="mt-1 text-xs text-gray-600">
        For people only: crawlers always get your card (until the link expires).
      </p>
      <div className="mt-3">
        <label htmlFor="expiresAt" className="block text-sm font-medium">
          Expires at
        </label>
        <input
          id="expiresAt"
          type="datetime-local"
          value={draft.expiresAt}
          aria-invalid={Boolean(errors.expiresAt)}
          aria-describedby="expiresAt-zone expiresAt-error"
          onChange={(e) => set({ expiresAt: (e.target as HTMLInputElement).value })}
          className={inputClass(Boolean(errors.expiresAt))}
        />
        <p id="expiresAt-zone" className="mt-1 text-xs text-gray-500" data-testid="expires-zone">
          {zone ? `In your time zone (${zone}).` : "In your time zone."}
        </p>
        <FieldError id="expiresAt-error" message={errors.expiresAt} />
      </div>
      {text(
        "maxClicks",
        "Maximum visits",
        "People only; the next person finds the link expired. Empty: no limit.",
        "number",
      )}
      {text("expiredUrl", "When expired, send people to", 'Empty: a small "This link has expired" page.')}
      <div className="mt-3">
        <label htmlFor="password" className="block text-sm font-medium">
          Password
        </label>
        <input
          id="password"
          type="password"
          autoComplete="new-password"
          value={draft.password}
          disabled={draft.removePassword}
          placeholder={hasPassword ? "Unchanged" : "None"}
          aria-invalid={Boolean(errors.password)}
          aria-describedby="password-error"
          onChange={(e) => set({ password: (e.target as HTMLInputElement).value })}
          className={inputClass(Boolean(errors.password))}
        />
        {hasPassword && (
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={draft.removePassword}
              onChange={(e) => set({ removePassword: (e.target as HTMLInputElement).checked, password: "" })}
            />{" "}
            Remove the password
          </label>
        )}
        <FieldError id="password-error" message={errors.password} />
      </div>
      <fieldset className="mt-3">
        <legend className="text-sm font-medium">Targets by device or country (first match wins)</legend>
        {draft.rules.map((row, index) => (
          <div key={index} className="mt-2 flex flex-wrap items-start gap-2" data-testid="rule-row">
            <select
              aria-label="Rule kind"
              value={row.kind}
              onChange={(e) =>
                setRow(index, { kind: (e.target as HTMLSelectElement).value as RuleRow["kind"], value: "" })
              }
              className="rounded-md border border-gray-300 px-2 py-2 text-sm"
            >
              <option value="device">Device</option>
              <option value="country">Country</option>
            </select>
            {row.kind === "device" ? (
              <select
                aria-label="Device"
                value={row.value}
                onChange={(e) => {
                  const value = (e.target as HTMLSelectElement).value;
                  // Only a phone opens an app (src/rules/model.ts): a rule moved to another device drops it.
                  setRow(index, value === "ios" || value === "android" ? { value } : { value, appUrl: undefined });
                }}
                className="rounded-md border border-gray-300 px-2 py-2 text-sm"
              >
                <option value="">Choose…</option>
                {DEVICES.map((device) => (
                  <option key={device} value={device}>
                    {device === "ios" ? "iPhone / iPad" : device === "android" ? "Android" : "Desktop"}
                  </option>
                ))}
              </select>
            ) : (
              <input
                aria-label="Country code"
                placeholder="e.g. DE"
                maxLength={2}
                value={row.value}
                onChange={(e) => setRow(index, { value: (e.target as HTMLInputElement).value.toUpperCase() })}
                className="w-24 rounded-md border border-gray-300 px-2 py-2 text-sm placeholder:text-gray-400 placeholder:italic"
              />
            )}
            <input
              aria-label="Rule target URL"
              placeholder="https://…"
              value={row.targetUrl}
              onChange={(e) => setRow(index, { targetUrl: (e.target as HTMLInputElement).value })}
              className="min-w-0 flex-[1_1_16rem] rounded-md border border-gray-300 px-2 py-2 text-sm"
            />
            {row.kind === "device" && (row.value === "ios" || row.value === "android") && (
              <input
                aria-label="App URL"
                placeholder="App URL (optional), e.g. myapp://item/42"
                title="Opens your app; the target URL is the fallback (the store, say) when it is not installed"
                value={row.appUrl ?? ""}
                onChange={(e) => setRow(index, { appUrl: (e.target as HTMLInputElement).value.trim() || undefined })}
                className="min-w-0 flex-[1_1_16rem] rounded-md border border-gray-300 px-2 py-2 text-sm placeholder:text-gray-400 placeholder:italic"
              />
            )}
            <button
              type="button"
              className={buttonClass.secondary}
              onClick={() => set({ rules: draft.rules.filter((_, i) => i !== index) })}
            >
              Remove
            </button>
            <FieldError
              id={`rule-${index}-error`}
              message={
                errors[`rules.${index}.when`] ??
                errors[`rules.${index}.when.device`] ??
                errors[`rules.${index}.when.country`] ??
                errors[`rules.${index}.targetUrl`] ??
                errors[`rules.${index}.appUrl`]
              }
            />
          </div>
        ))}
        {draft.rules.length < MAX_RULES && (
          <button
            type="button"
            className={`${buttonClass.secondary} mt-2`}
            onClick={() => set({ rules: [...draft.rules, { kind: "device", value: "", targetUrl: "" }] })}
          >
            Add a rule
          </button>
        )}
      </fieldset>
    </details>
  );
}
