// The plan cards of the landing page and /pricing, with each button's state decided on the server.
import type { Plan } from "../plans/plans.ts";
import { BILLING_OFF_NOTE } from "../client/instance.ts";
import { PlanButton, VatExemption } from "./islands.ts";

export type PlanListProps = {
  plans: readonly Plan[];
  signedIn: boolean;
  currentPlan: Plan | null;
  businessCountry: string;
  billingEnabled: boolean;
};

function buttonFor(
  plan: Plan,
  { signedIn, currentPlan }: Pick<PlanListProps, "signedIn" | "currentPlan">,
): { label: string; disabled: boolean } {
  if (!signedIn) return { label: "Start now", disabled: false };
  if (!currentPlan) return { label: "Subscribe", disabled: false };
  if (plan.id === currentPlan.id) return { label: "Current Plan", disabled: true };
  return { label: plan.rank > currentPlan.rank ? "Upgrade" : "Downgrade", disabled: false };
}

export function PlanList({ plans, signedIn, currentPlan, businessCountry, billingEnabled }: PlanListProps) {
  return (
    <div>
      {!billingEnabled && (
        <p
          role="note"
          data-testid="billing-off"
          className="mx-auto mb-6 max-w-2xl rounded-md border border-indigo-200 bg-indigo-50 px-4 py-3 text-center text-sm text-indigo-900"
        >
          {BILLING_OFF_NOTE}
        </p>
      )}
      <ul className="grid gap-6 md:grid-cols-3">
        {plans.map((plan) => {
          const button = buttonFor(plan, { signedIn, currentPlan });
          return (
            <li
              key={plan.id}
              data-plan={plan.id}
              className={`flex flex-col rounded-lg border p-6 shadow-sm ${billingEnabled && currentPlan?.id === plan.id ? "border-indigo-600" : "border-gray-200"}`}
            >
              <h3 className="text-lg font-semibold">{plan.name}</h3>
              <p className="mt-1 text-sm text-gray-600">{plan.description}</p>
              <p className="mt-4">
                <span className="text-3xl font-bold">{`€${plan.priceMonthly}`}</span>
                <span className="text-sm text-gray-600">/month</span>
              </p>
              <ul className="mt-4 flex-1 space-y-2 text-sm">
                {plan.features.map((feature) => (
                  <li key={feature}>{`✓ ${feature}`}</li>
                ))}
              </ul>
              {/* Without billing no plan can be bought or changed: a button would only fail. */}
              {billingEnabled && (
                <div className="mt-6">
                  <PlanButton planId={plan.id} label={button.label} disabled={button.disabled} signedIn={signedIn} />
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {billingEnabled && (
        <>
          <p className="mt-4 text-center text-sm text-gray-600">All prices exclude VAT.</p>
          <VatExemption businessCountry={businessCountry} signedIn={signedIn} />
        </>
      )}
    </div>
  );
}
