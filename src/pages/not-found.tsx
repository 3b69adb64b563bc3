export function NotFoundPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}
