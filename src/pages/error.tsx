export function ErrorPage({ message }: { message: string }) {
  return (
    <section className="centered">
      <h1>Something went wrong</h1>
      <p>{message}</p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}
