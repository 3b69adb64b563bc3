// The QR section's controls (islands/QrStyleEditor.tsx): colours, module and finder shapes, margin, error
// correction, inverted colours and the logo's size. Every value offered here is decoded in tests/unit/qr-logo.test.ts
// and tests/unit/qr-style.test.ts.
import {
  QR_ECC_LEVELS,
  QR_LOGO_SIZES,
  QR_FINDERS,
  QR_MARGIN_MAX,
  QR_MARGIN_MIN,
  QR_SHAPES,
  type QrStyle,
} from "../../../links/qr-style-model.ts";

const selectClass = "mt-1 block w-full rounded-md border border-gray-300 px-2 py-2 text-sm";
const labelClass = "block text-sm font-medium";

type Props = { style: QrStyle; onStyle: (style: QrStyle) => void; hasLogo: boolean };

export function QrControls({ style, onStyle, hasLogo }: Props) {
  const set = (patch: Partial<QrStyle>) => onStyle({ ...style, ...patch });
  const colour = (key: "fg" | "bg", label: string) => (
    <label className={labelClass}>
      {label}
      <input
        type="color"
        aria-label={label}
        value={style[key]}
        onInput={(e) => set({ [key]: (e.target as HTMLInputElement).value })}
        className="mt-1 block h-9 w-full rounded-md border border-gray-300"
      />
    </label>
  );
  const choice = <K extends "shape" | "finder" | "ecc">(key: K, label: string, options: readonly QrStyle[K][]) => (
    <label className={labelClass}>
      {label}
      <select
        aria-label={label}
        value={style[key]}
        onChange={(e) => set({ [key]: (e.target as HTMLSelectElement).value } as Partial<QrStyle>)}
        className={selectClass}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {colour("fg", "Dark colour")}
      {colour("bg", "Light colour")}
      {choice("shape", "Module shape", QR_SHAPES)}
      {choice("finder", "Corner shape", QR_FINDERS)}
      <label className={labelClass}>
        Margin (modules)
        <input
          type="number"
          min={QR_MARGIN_MIN}
          max={QR_MARGIN_MAX}
          value={style.margin}
          onChange={(e) => set({ margin: Number((e.target as HTMLInputElement).value) })}
          className={selectClass}
        />
      </label>
      {choice("ecc", "Error correction", style.logo ? ["H"] : QR_ECC_LEVELS)}
      <label className="col-span-full flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={style.inverted}
          onChange={(e) => set({ inverted: (e.target as HTMLInputElement).checked })}
        />
        Light modules on a dark ground (some older readers miss these)
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={style.logo}
          disabled={!hasLogo}
          onChange={(e) => set({ logo: (e.target as HTMLInputElement).checked })}
        />
        Logo in the middle
      </label>
      {style.logo && (
        <label className={labelClass}>
          Logo size
          <select
            aria-label="Logo size"
            value={style.logoSize}
            onChange={(e) => set({ logoSize: Number((e.target as HTMLSelectElement).value) })}
            className={selectClass}
          >
            {QR_LOGO_SIZES.map(([size, name]) => (
              <option key={size} value={size}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
