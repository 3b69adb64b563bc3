// The event types as checkboxes: for a new endpoint, and when changing an endpoint's events.
import { WEBHOOK_EVENT_TYPES } from "../../../webhooks/wire.ts";

export function EventChoices({
  legend,
  chosen,
  onChange,
}: {
  legend: string;
  chosen: string[];
  onChange: (events: string[]) => void;
}) {
  const toggle = (type: string) =>
    onChange(chosen.includes(type) ? chosen.filter((t) => t !== type) : [...chosen, type]);
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-2 grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="flex items-center gap-2">
            <input type="checkbox" checked={chosen.includes(type)} onChange={() => toggle(type)} />
            <code>{type}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
