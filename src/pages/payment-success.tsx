export function PaymentSuccessPage({ planName }: { planName: string | null }) {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Payment Successful!</h1>
      <p>Your subscription has been activated successfully.</p>
      <p>
        Plan: <strong>{planName ?? "-"}</strong>
      </p>
      <p>
        <a className="inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500" href="/admin/link/new">
          Create link now
        </a>
      </p>
    </section>
  );
}
