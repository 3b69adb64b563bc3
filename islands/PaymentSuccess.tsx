// After checkout: waits 1.5 s, then reads the active subscription. A failure is logged and shows '-'.
import { useEffect, useState } from "react";
import { api } from "../src/client/api.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import type { ActiveSubscriptionJson } from "../src/billing/wire.ts";

const CHECK_DELAY_MS = 1500;

export default function PaymentSuccess() {
  const [planName, setPlanName] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => {
      api<ActiveSubscriptionJson>("/api/subscriptions/active")
        .then((answer) => setPlanName(answer.subscription?.plan.name ?? null))
        .catch((error) => {
          console.warn("Could not load the subscription", error);
          setPlanName(null);
        });
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  if (planName === undefined) {
    return (
      <div className="py-16 text-center" role="status">
        <div
          className="mx-auto h-8 w-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600"
          aria-hidden="true"
        />
        <p className="mt-4">Verifying your subscription...</p>
      </div>
    );
  }
  return (
    <div className="py-16 text-center">
      <h1 className="text-3xl font-bold">Payment Successful!</h1>
      <p className="mt-2">Your subscription has been activated successfully.</p>
      <p className="mt-4">
        Plan: <strong data-testid="plan-name">{planName ?? "-"}</strong>
      </p>
      <a href="/admin/link/new" className={`mt-6 inline-block ${buttonClass.primary}`}>
        Create link now
      </a>
    </div>
  );
}
