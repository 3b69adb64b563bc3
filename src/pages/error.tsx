export function ErrorPage({ message }: { message: string }) {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p>{message}</p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}
