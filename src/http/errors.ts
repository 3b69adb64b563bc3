// Errors are values: a status and a message a user can read. Everything that fails on purpose throws one of these;
// the single onError in src/app.ts turns them (and anything unexpected) into a response.
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The input field the message is about, when there is one. */
    readonly field?: string,
    /** A 429's Retry-After: when the limit lets the client in again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, message, field);
export const unauthorized = (message = "Not signed in") => new AppError(401, message);
export const paymentRequired = (message: string) => new AppError(402, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message = "Not found") => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooLarge = (message: string) => new AppError(413, message);
/** `retryAfterMs`: how long until the limit lets the client in again (at least a second, said in whole seconds). */
export const tooManyRequests = (message: string, retryAfterMs: number) =>
  new AppError(429, message, undefined, Math.max(1, Math.ceil(retryAfterMs / 1000)));
export const unavailable = (message: string) => new AppError(503, message);

/** zod's issues, as one readable line naming the field. */
export function validationError(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const first = issues[0];
  if (!first) return badRequest("Invalid input");
  const field = first.path.map(String).join(".");
  return badRequest(field ? `${field}: ${first.message}` : first.message, field || undefined);
}
