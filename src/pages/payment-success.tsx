export function PaymentSuccessPage({ planName }: { planName: string | null }) {
  return (
    <section className="centered">
      <h1>Payment Successful!</h1>
      <p>Your subscription has been activated successfully.</p>
      <p>
        Plan: <strong>{planName ?? "-"}</strong>
      </p>
      <p>
        <a className="button" href="/admin/link/new">
          Create link now
        </a>
      </p>
    </section>
  );
}
