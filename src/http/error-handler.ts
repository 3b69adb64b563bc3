// The one place where failures become responses: JSON {message} under /api, an HTML page for browsers (and for a
// browser's form posted to /api).
// Unexpected errors are logged and answered without internal detail.
import { Elysia, ValidationError } from "elysia";
import { AppError, notFound, validationError } from "./errors.ts";
import { DATABASE_DOWN_MESSAGE, isDatabaseDown, retryAfterHeaders } from "./database-down.ts";
import type { Logger } from "../observability/log.ts";
import { originOf } from "../observability/request-facts.ts";

type Failure = { status: number; message: string; field?: string; retryAfterSeconds?: number };

type Issue = { path: PropertyKey[]; message: string };
const isIssue = (value: unknown): value is Issue =>
  typeof value === "object" &&
  value !== null &&
  "message" in value &&
  typeof value.message === "string" &&
  "path" in value &&
  Array.isArray(value.path);

/**
 * A route's schema refused the request (src/http/validate.ts): a body or query is a 400 naming the field, as
 * parseInput says it; a path that names nothing is a 404 saying what was not found (the schema's message).
 */
function refusedInput(error: ValidationError): AppError {
  const issue = isIssue(error.valueError) ? error.valueError : null;
  if (error.type === "params") return notFound(issue?.message);
  return validationError(issue ? [issue] : []);
}

const UNEXPECTED: Failure = { status: 500, message: "Something went wrong on our side. Please try again." };

function describe(code: string | number, error: unknown, log: (error: unknown) => void): Failure {
  if (error instanceof ValidationError) {
    // A response its route's schema refuses is our bug, not the caller's.
    if (error.type === "response") {
      log(error);
      return UNEXPECTED;
    }
    error = refusedInput(error);
  }
  if (error instanceof AppError)
    return {
      status: error.status,
      message: error.message,
      field: error.field,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  if (isDatabaseDown(error)) return { status: 503, message: DATABASE_DOWN_MESSAGE };
  switch (code) {
    case "NOT_FOUND":
      return { status: 404, message: "Not found" };
    case "PARSE":
      return { status: 400, message: "The request body could not be read. Send valid JSON or form data." };
    case "INVALID_COOKIE_SIGNATURE":
      return { status: 400, message: "Invalid cookie" };
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return { status, message: "Invalid request" };
  log(error);
  return UNEXPECTED;
}

/**
 * A browser asking for a page, not a script for data: a form's submission or a link into /api (sign-in, sign-out,
 * reports). fetch() asks for any type, so the islands still read JSON.
 */
const isPageRequest = (request: Request) => (request.headers.get("accept") ?? "").includes("text/html");

/**
 * The HTML answer to a failed browser request (src/pages/error.tsx): given the request's context, so that the top bar
 * can still show who is signed in.
 */
export type ErrorPageRenderer = (
  failure: { status: number; message: string },
  context: object,
) => Response | Promise<Response>;

export const errorHandler = (errorPage: ErrorPageRenderer, log: Logger) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, async (context) => {
    const { code, error, request } = context;
    const { status, message, field, retryAfterSeconds } = describe(code, error, (unexpected) =>
      log.error("request failed", unexpected, originOf(request).requestId),
    );
    // Any 503 (the database, or an AppError's) asks the client to come back soon; a 429 says when its limit lets it in.
    const headers =
      status === 503
        ? retryAfterHeaders
        : retryAfterSeconds !== undefined
          ? { "Retry-After": String(retryAfterSeconds) }
          : undefined;
    if (new URL(request.url).pathname.startsWith("/api/") && !isPageRequest(request))
      return Response.json(field ? { message, field } : { message }, { status, headers });
    const page = await errorPage({ status, message }, context);
    if (headers) page.headers.set("Retry-After", headers["Retry-After"]);
    return page;
  });
