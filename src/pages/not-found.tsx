export function NotFoundPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-6">
        <a
          href="/"
          className="inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500"
        >
          Back to the home page
        </a>
      </p>
    </section>
  );
}

/** /go under the user slug of a deleted account (410): the address is retired for good, never given to anyone else. */
export function GonePage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">410 Link Gone</h1>
      <p>This short link belonged to an account that has been deleted. It no longer leads anywhere, and never will.</p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}

/** The database cannot answer now (src/http/database-down.ts): a 503 that a browser or crawler should retry. */
export function UnavailablePage({ message }: { message: string }) {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">503 Service Unavailable</h1>
      <p>{message}</p>
    </section>
  );
}

/** A link whose owner set it to expire, past its time or its number of visits (src/go/rule-answer.ts). */
export function ExpiredPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">This link has expired</h1>
      <p className="mt-4 text-gray-700">
        The owner of this short link set it to stop working after a date or a number of visits.
      </p>
      <p className="mt-6">
        <a href="/" className="text-indigo-700 underline">
          Back to the home page
        </a>
      </p>
    </section>
  );
}
