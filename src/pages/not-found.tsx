export function NotFoundPage() {
  return (
    <section className="centered">
      <h1>404 Page Not Found</h1>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}
