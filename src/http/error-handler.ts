// The one place where failures become responses: JSON {message} under /api, an HTML page for browsers.
// Unexpected errors are logged and answered without internal detail.
import { Elysia } from "elysia";
import { AppError } from "./errors.ts";
import { DATABASE_DOWN_MESSAGE, isDatabaseDown, retryAfterHeaders } from "./database-down.ts";
import type { Logger } from "../observability/log.ts";
import { requestIdOf } from "../observability/request-facts.ts";

function describe(code: string | number, error: unknown, log: (error: unknown) => void): { status: number; message: string; field?: string } {
  if (error instanceof AppError) return { status: error.status, message: error.message, field: error.field };
  if (isDatabaseDown(error)) return { status: 503, message: DATABASE_DOWN_MESSAGE };
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, message: "Not found" };
    case "PARSE":
      return { status: 400, message: "The request body could not be read. Send valid JSON or form data." };
    case "VALIDATION":
      return { status: 400, message: "Invalid input" };
    case "INVALID_COOKIE_SIGNATURE":
      return { status: 400, message: "Invalid cookie" };
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return { status, message: "Invalid request" };
  log(error);
  return { status: 500, message: "Something went wrong on our side. Please try again." };
}

/**
 * The HTML answer to a failed browser request (src/pages/error.tsx): given the request's context, so that the top bar
 * can still show who is signed in.
 */
export type ErrorPageRenderer = (failure: { status: number; message: string }, context: object) => Response | Promise<Response>;

export const errorHandler = (errorPage: ErrorPageRenderer, log: Logger) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, async (context) => {
    const { code, error, request } = context;
    const { status, message, field } = describe(code, error, (unexpected) => log.error("request failed", unexpected, requestIdOf(request)));
    // Any 503 (the database, or an AppError's) asks the client to come back soon.
    const headers = status === 503 ? retryAfterHeaders : undefined;
    if (new URL(request.url).pathname.startsWith("/api/")) return Response.json(field ? { message, field } : { message }, { status, headers });
    const page = await errorPage({ status, message }, context);
    if (headers) page.headers.set("Retry-After", headers["Retry-After"]);
    return page;
  });
