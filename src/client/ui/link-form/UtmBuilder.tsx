// The link editor's UTM builder: campaign tags written into the target URL's query (its other parameters kept),
// with presets per platform (src/utm/model.ts).
import { useState } from "react";
import { mergeUtm, UTM_FIELDS, UTM_PRESETS, utmOf, type UtmTags } from "../../../utm/model.ts";
import { buttonClass } from "../Dialog.tsx";

export function UtmBuilder({ targetUrl, onTargetUrl }: { targetUrl: string; onTargetUrl: (url: string) => void }) {
  const [tags, setTags] = useState<UtmTags>(() => utmOf(targetUrl));
  const valid = URL.canParse(targetUrl);
  return (
    <details id="utm-builder" className="rounded-md border border-gray-200 p-3">
      <summary className="cursor-pointer text-sm font-medium">UTM tags</summary>
      <label htmlFor="utm-preset" className="mt-3 block text-sm font-medium">
        Preset
      </label>
      <select
        id="utm-preset"
        defaultValue=""
        onChange={(e) =>
          setTags({
            ...tags,
            ...UTM_PRESETS.find((preset) => preset.id === (e.target as HTMLSelectElement).value)?.tags,
          })
        }
        className="mt-1 rounded-md border border-gray-300 px-2 py-2 text-sm"
      >
        <option value="">Choose a platform…</option>
        {UTM_PRESETS.map((preset) => (
          <option key={preset.id} value={preset.id}>
            {preset.label}
          </option>
        ))}
      </select>
      {UTM_FIELDS.map((field) => (
        <div key={field} className="mt-2">
          <label htmlFor={field} className="block text-sm font-medium">
            {field}
          </label>
          <input
            id={field}
            value={tags[field] ?? ""}
            onChange={(e) => setTags({ ...tags, [field]: (e.target as HTMLInputElement).value })}
            className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
          />
        </div>
      ))}
      <button
        type="button"
        className={`${buttonClass.secondary} mt-3`}
        disabled={!valid}
        onClick={() => onTargetUrl(mergeUtm(targetUrl, tags))}
      >
        Add the tags to the target URL
      </button>
    </details>
  );
}
