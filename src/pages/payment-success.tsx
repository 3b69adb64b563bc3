// /payment-success: the island waits 1.5 s, then shows the plan the checkout activated.
import { PaymentSuccess } from "./islands.ts";

export function PaymentSuccessPage() {
  return <PaymentSuccess />;
}
