export function DashboardPage() {
  return (
    <section>
      <h1 className="text-3xl font-bold">Admin Dashboard</h1>
      <p className="mt-1 text-gray-600">Manage your links and subscription</p>
    </section>
  );
}
