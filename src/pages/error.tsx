// The error pages, for the error handler (src/http/error-handler.ts): 404 or "Something went wrong".
import type { ErrorPageRenderer } from "../http/error-handler.ts";
import { NotFoundPage } from "./not-found.tsx";
import type { PageRenderer } from "./render.tsx";
import type { PageViewer } from "./viewer.ts";
import type { Acting } from "../workspaces/acting.ts";

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

/** What the request's context may hold: a page's resolved viewer, or only the auth plugin's signed-in user. */
type FailedContext = { pageViewer?: PageViewer | null; viewer?: Acting | null };

/**
 * `resolveViewer` is asked only when the failure came before a page resolved its viewer; a viewer that cannot be
 * resolved (the database is what failed) leaves the top bar signed out rather than failing the error page too.
 */
export const errorPages =
  (pages: PageRenderer, resolveViewer: (acting: Acting) => Promise<PageViewer | null>): ErrorPageRenderer =>
  async ({ status, message }, context) => {
    const { pageViewer, viewer: signedIn } = context as FailedContext;
    const viewer =
      pageViewer !== undefined ? pageViewer : signedIn ? await resolveViewer(signedIn).catch(() => null) : null;
    return status === 404
      ? pages.response(<NotFoundPage />, { title: "Page not found", status, viewer })
      : pages.response(<ErrorPage message={message} />, { title: "Error", status, viewer });
  };
