// A plan card's button. Signed out: remember the plan and sign in. Signed in: start the checkout (or the plan
// change) and follow the URL the server returns. After sign-in the remembered plan continues by itself.
import { useEffect, useState } from "react";
import { api, SIGN_IN_PATH } from "../src/client/api.ts";
import {
  readSession,
  SELECTED_PLAN_KEY,
  VAT_INFO_KEY,
  writeSession,
  type StoredVatInfo,
} from "../src/client/storage.ts";
import { toast } from "../src/client/toast.ts";
import type { CheckoutJson } from "../src/billing/wire.ts";

export type PlanButtonProps = { planId: string; label: string; disabled: boolean; signedIn: boolean };

export default function PlanButton({ planId, label, disabled, signedIn }: PlanButtonProps) {
  const [busy, setBusy] = useState(false);

  const subscribe = async () => {
    setBusy(true);
    try {
      const vat = readSession<StoredVatInfo>(VAT_INFO_KEY);
      const vatInfo = vat?.isValid
        ? { countryCode: vat.countryCode, vatNumber: vat.vatNumber, companyName: vat.companyName ?? undefined }
        : undefined;
      const { url } = await api<CheckoutJson>("/api/subscriptions", { method: "POST", json: { planId, vatInfo } });
      window.location.assign(url);
    } catch {
      toast({ title: "Error", description: "Could not process the subscription", variant: "destructive" });
      setBusy(false);
    }
  };

  useEffect(() => {
    const selected = readSession<{ planId: string }>(SELECTED_PLAN_KEY);
    if (signedIn && !disabled && selected?.planId === planId) {
      writeSession(SELECTED_PLAN_KEY, null);
      void subscribe();
    }
  }, []);

  const onClick = () => {
    if (!signedIn) {
      writeSession(SELECTED_PLAN_KEY, { planId });
      window.location.assign(SIGN_IN_PATH);
      return;
    }
    void subscribe();
  };

  return (
    <button
      type="button"
      disabled={disabled || busy}
      onClick={onClick}
      className="w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500 disabled:cursor-not-allowed disabled:bg-gray-300 disabled:text-gray-600"
    >
      {busy ? "Please wait…" : label}
    </button>
  );
}
