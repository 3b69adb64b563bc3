// EU VAT exemption: country and number checked through VIES; the result is kept in session
// storage (and, when signed in, on the server) for checkout.
import { useEffect, useState } from "react";
import { api } from "../src/client/api.ts";
import { readSession, VAT_INFO_KEY, writeSession, type StoredVatInfo } from "../src/client/storage.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";
import type { VatCheckJson } from "../src/billing/wire.ts";

export const EU_COUNTRY_NAMES: Record<string, string> = {
  AT: "Austria",
  BE: "Belgium",
  BG: "Bulgaria",
  HR: "Croatia",
  CY: "Cyprus",
  CZ: "Czechia",
  DK: "Denmark",
  EE: "Estonia",
  FI: "Finland",
  FR: "France",
  DE: "Germany",
  GR: "Greece",
  HU: "Hungary",
  IE: "Ireland",
  IT: "Italy",
  LV: "Latvia",
  LT: "Lithuania",
  LU: "Luxembourg",
  MT: "Malta",
  NL: "Netherlands",
  PL: "Poland",
  PT: "Portugal",
  RO: "Romania",
  SK: "Slovakia",
  SI: "Slovenia",
  ES: "Spain",
  SE: "Sweden",
};

export default function VatExemption({ businessCountry, signedIn }: { businessCountry: string; signedIn: boolean }) {
  const [open, setOpen] = useState(false);
  const [country, setCountry] = useState("");
  const [number, setNumber] = useState("");
  const [busy, setBusy] = useState(false);
  const [stored, setStored] = useState<StoredVatInfo | null>(null);

  useEffect(() => setStored(readSession<StoredVatInfo>(VAT_INFO_KEY)), []);

  const sameCountry = country !== "" && country === businessCountry;

  const chooseCountry = (code: string) => {
    setCountry(code);
    // The note under the country says why (no toast repeating it).
    if (code === businessCountry) setNumber("");
  };

  const validate = async () => {
    if (!country || !number.trim()) {
      toast({
        title: "Validation error",
        description: "Please provide both country and VAT number",
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    const vatNumber = number.replace(/[^A-Za-z0-9]/g, "");
    try {
      const response = await fetch("/api/vat/validate", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ countryCode: country, vatNumber }),
      });
      const text = await response.text();
      if (!response.ok) {
        if (/same country|not applicable/i.test(text))
          toast({
            title: "VAT exemption not applicable",
            description: "VAT exemption is only valid for cross-border transactions within the EU",
            variant: "destructive",
          });
        else
          toast({
            title: "Server error",
            description: "Could not validate your VAT number due to a server error. Please try again later.",
            variant: "destructive",
          });
        return;
      }
      const answer = JSON.parse(text) as VatCheckJson;
      const info: StoredVatInfo = {
        countryCode: country,
        vatNumber,
        isValid: answer.isValid,
        companyName: answer.companyName,
      };
      if (!answer.isValid) {
        setStored(info);
        toast({
          title: "Invalid VAT number",
          description: "Not registered in the VIES system or could not be verified",
          variant: "destructive",
        });
        return;
      }
      writeSession(VAT_INFO_KEY, info);
      setStored(info);
      setOpen(false);
      toast({ title: "VAT number validated", description: "Your company has been verified for VAT exemption" });
    } catch {
      toast({
        title: "Connection error",
        description: "Could not connect to the validation service. Please check your connection and try again.",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    writeSession(VAT_INFO_KEY, null);
    setStored(null);
    if (signedIn) await api("/api/vat", { method: "DELETE" }).catch(() => undefined);
  };

  return (
    <div className="mt-6 text-center text-sm" data-testid="vat">
      {stored?.isValid ? (
        <p className="inline-flex items-center gap-3 rounded-md border border-green-300 bg-green-50 px-3 py-2">
          <span>{`VAT exemption: ${stored.companyName ?? stored.countryCode + stored.vatNumber} (${stored.countryCode}${stored.vatNumber})`}</span>
          <button type="button" className="font-semibold text-green-900 underline" onClick={remove}>
            Remove
          </button>
        </p>
      ) : (
        <button type="button" className="text-indigo-700 underline" onClick={() => setOpen(true)}>
          EU business? Apply for VAT exemption
        </button>
      )}
      <Dialog
        open={open}
        title="VAT exemption"
        description="EU businesses registered in another member state can be exempt (reverse charge)."
        onDismiss={() => !busy && setOpen(false)}
      >
        <div className="space-y-3 text-left">
          <label className="block text-sm font-medium" htmlFor="vat-country">
            Country
          </label>
          <select
            id="vat-country"
            value={country}
            onChange={(e) => chooseCountry((e.target as HTMLSelectElement).value)}
            className="block w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
          >
            <option value="">Choose a country</option>
            {Object.entries(EU_COUNTRY_NAMES).map(([code, name]) => (
              <option key={code} value={code}>{`${name} (${code})`}</option>
            ))}
          </select>
          {sameCountry && (
            <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" role="note">
              VAT exemption not applicable: companies registered in the same country as us are not eligible.
            </p>
          )}
          <label className="block text-sm font-medium" htmlFor="vat-number">
            VAT number
          </label>
          <input
            id="vat-number"
            value={number}
            disabled={sameCountry}
            onChange={(e) => setNumber((e.target as HTMLInputElement).value)}
            placeholder="e.g. 123456789"
            className="block w-full rounded-md border border-gray-300 px-3 py-2 text-sm disabled:bg-gray-100"
          />
          <div className="flex justify-end gap-2 pt-2">
            <button type="button" className={buttonClass.secondary} onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </button>
            <button type="button" className={buttonClass.primary} onClick={validate} disabled={busy || sameCountry}>
              {busy ? "Checking…" : "Validate"}
            </button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}
