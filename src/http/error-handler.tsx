// The one place where failures become responses: JSON {message} under /api, an HTML page for browsers.
// Unexpected errors are logged and answered without internal detail.
import { Elysia } from "elysia";
import Stripe from "stripe";
import type { User } from "../db/tables.ts";
import { AppError } from "./errors.ts";
import type { PageRenderer } from "../pages/render.tsx";
import { NotFoundPage } from "../pages/not-found.tsx";
import { ErrorPage } from "../pages/error.tsx";
import type { Logger } from "../observability/log.ts";
import { REQUEST_ID_HEADER } from "../observability/request-facts.ts";

function describe(code: string | number, error: unknown, log: (error: unknown) => void): { status: number; message: string; field?: string } {
  if (error instanceof AppError) return { status: error.status, message: error.message, field: error.field };
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
  if (error instanceof Stripe.errors.StripeError) {
    console.error(`Stripe: ${error.type}: ${error.message}`);
    return error instanceof Stripe.errors.StripeConnectionError
      ? { status: 503, message: "The payment provider could not be reached. Please try again later." }
      : { status: 502, message: "The payment provider could not complete the request. Please try again later." };
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === "number" && status >= 400 && status < 500) return { status, message: "Invalid request" };
  log(error);
  return { status: 500, message: "Something went wrong on our side. Please try again." };
}

export const errorHandler = (pages: PageRenderer, log: Logger) =>
  new Elysia({ name: "error-handler" }).onError({ as: "global" }, async (context) => {
    const { code, error, request } = context;
    const { status, message, field } = describe(code, error, (unexpected) => log.error("request failed", unexpected, request.headers.get(REQUEST_ID_HEADER) ?? undefined));
    // Set when the auth plugin ran before the failure, so the top bar still shows who is signed in.
    const user = (context as { viewer?: { user: User } | null }).viewer?.user ?? null;
    if (new URL(request.url).pathname.startsWith("/api/")) return Response.json(field ? { message, field } : { message }, { status });
    return status === 404
      ? pages.response(<NotFoundPage />, { title: "Page not found", status, user })
      : pages.response(<ErrorPage message={message} />, { title: "Error", status, user });
  });
