// The current subscription: none, Active (next renewal), or Canceled (ends on …); cancel and reactivate.
import { useState } from "react";
import { api } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";
import { longDate } from "../src/client/format.ts";
import { BILLING_OFF_NOTE } from "../src/client/instance.ts";

export type SubscriptionCardProps = {
  subscription: {
    planName: string;
    status: string;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
  } | null;
  billingEnabled: boolean;
};

export default function SubscriptionCard({ subscription: initial, billingEnabled }: SubscriptionCardProps) {
  const [subscription, setSubscription] = useState(initial);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!subscription) {
    return (
      <div className="rounded-lg border border-gray-200 p-6" data-testid="subscription-card">
        <p className="font-semibold">No active subscription</p>
        <a href="/pricing" className={`mt-4 inline-block ${buttonClass.primary}`}>
          View plans
        </a>
      </div>
    );
  }

  if (!billingEnabled) {
    return (
      <div className="rounded-lg border border-gray-200 p-6" data-testid="subscription-card">
        <p className="text-lg font-semibold">{`${subscription.planName} limits`}</p>
        <p className="mt-2 text-sm text-gray-600">{BILLING_OFF_NOTE}</p>
        <a href="/pricing" className={`mt-4 inline-block ${buttonClass.secondary}`}>
          See what each plan allows
        </a>
      </div>
    );
  }

  const change = async (action: "cancel" | "reactivate") => {
    setBusy(true);
    try {
      await api(`/api/subscriptions/${action}`, { method: "POST" });
      setSubscription({ ...subscription, cancelAtPeriodEnd: action === "cancel" });
      toast({ title: action === "cancel" ? "Subscription canceled" : "Subscription reactivated" });
    } catch {
      toast({
        title: "Error",
        description:
          action === "cancel" ? "Could not cancel the subscription" : "Could not reactivate the subscription",
        variant: "destructive",
      });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const ends = subscription.currentPeriodEnd ? longDate(subscription.currentPeriodEnd) : null;
  return (
    <div className="rounded-lg border border-gray-200 p-6" data-testid="subscription-card">
      <div className="flex items-center justify-between gap-4">
        <p className="text-lg font-semibold">{subscription.planName}</p>
        {subscription.cancelAtPeriodEnd ? (
          <span className="rounded-full bg-yellow-100 px-3 py-1 text-sm font-medium text-yellow-800">{`Canceled (ends on ${ends ?? "-"})`}</span>
        ) : (
          <span className="rounded-full bg-green-100 px-3 py-1 text-sm font-medium text-green-800">Active</span>
        )}
      </div>
      {!subscription.cancelAtPeriodEnd && ends && (
        <p className="mt-2 text-sm text-gray-600">{`Next renewal: ${ends}`}</p>
      )}
      <div className="mt-4 flex gap-2">
        {subscription.cancelAtPeriodEnd ? (
          <button type="button" className={buttonClass.primary} disabled={busy} onClick={() => change("reactivate")}>
            Reactivate
          </button>
        ) : (
          <button type="button" className={buttonClass.secondary} disabled={busy} onClick={() => setConfirming(true)}>
            Cancel subscription
          </button>
        )}
        <a href="/pricing" className={buttonClass.secondary}>
          Change plan
        </a>
      </div>
      <Dialog
        open={confirming}
        title="Are you sure?"
        description="Your subscription will be canceled at the end of the current period. You keep its benefits until then."
        onDismiss={() => !busy && setConfirming(false)}
      >
        <div className="flex justify-end gap-2">
          <button type="button" className={buttonClass.secondary} disabled={busy} onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" className={buttonClass.danger} disabled={busy} onClick={() => change("cancel")}>
            Confirm cancellation
          </button>
        </div>
      </Dialog>
    </div>
  );
}
