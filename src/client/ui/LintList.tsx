// Preview-lint warnings as the editor shows them: severity styled, the platforms concerned named.
import type { LintWarning, Severity } from "../../previews/lint.ts";
import { platformName } from "../../previews/platforms.ts";

const STYLE: Record<Severity, { label: string; className: string }> = {
  error: { label: "Error", className: "border-red-300 bg-red-50 text-red-900" },
  warning: { label: "Warning", className: "border-amber-300 bg-amber-50 text-amber-900" },
  info: { label: "Tip", className: "border-sky-300 bg-sky-50 text-sky-900" },
};

export function LintList({
  id,
  warnings,
  className = "",
}: {
  id: string;
  warnings: LintWarning[];
  className?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul id={id} className={`space-y-1 ${className}`} data-testid="lint">
      {warnings.map((w) => (
        <li
          key={w.rule}
          data-rule={w.rule}
          data-severity={w.severity}
          className={`rounded-md border px-2 py-1 text-xs ${STYLE[w.severity].className}`}
        >
          <span className="font-semibold">{`${STYLE[w.severity].label} · ${w.platforms.map(platformName).join(", ")}: `}</span>
          {w.message}
        </li>
      ))}
    </ul>
  );
}
