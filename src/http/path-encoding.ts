// A path whose percent-escapes do not decode (%ZZ, a lone %, cut or overlong UTF-8, surrogates) names nothing:
// it is a 400 here, before any route sees its parameters (Elysia hands such a parameter over as null, Bun's raw
// routes as U+FFFD). Used by the app (src/app.ts) and by the request thread's raw routes (src/compose/raw-routes.ts).
import { Elysia } from "elysia";
import { badRequest } from "./errors.ts";

export const MALFORMED_PATH = "The address is malformed: each % must start a valid UTF-8 escape such as %C3%A9";

/** Whether the URL's path has an escape that does not decode; a path without % costs one scan. */
export function hasMalformedPath(url: string): boolean {
  if (!url.includes("%")) return false;
  try {
    decodeURIComponent(new URL(url).pathname);
    return false;
  } catch {
    return true;
  }
}

/** The app's check: after routing (so the request is logged under its route), before any handler or plugin. */
export const pathEncoding = () =>
  new Elysia({ name: "path-encoding" }).onTransform({ as: "global" }, ({ request }) => {
    if (hasMalformedPath(request.url)) throw badRequest(MALFORMED_PATH);
  });

/** The request thread's answer to such a path on its raw routes (/go, /uploads, /assets). */
export const malformedPathResponse = () => Response.json({ message: MALFORMED_PATH }, { status: 400 });

export type AnyRawHandler = (request: any, server: any) => Response | Promise<Response>;
/**
 * Raw routes with a parameter (src/compose/raw-routes.ts): a path whose escapes do not decode is a 400 before the
 * handler reads it.
 */
export const refuseMalformedPaths = (
  routes: Record<string, Record<string, AnyRawHandler>>,
): Record<string, Record<string, AnyRawHandler>> =>
  Object.fromEntries(
    Object.entries(routes).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, handler]) => [
          method,
          (request: Request, server: unknown) =>
            hasMalformedPath(request.url) ? malformedPathResponse() : handler(request, server),
        ]),
      ),
    ]),
  );
