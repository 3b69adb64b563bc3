// The words of an /api route's documentation, declared on the route beside its schemas (docs/decisions/0055):
// `{ doc: { id, tag, summary, answers, errors } }`. The macro writes them as the route's OpenAPI `detail`; openapi.ts
// adds the schemas the route validates with (body, query, params, response) and the errors every route may meet.
import { Elysia, type DocumentDecoration } from "elysia";
import { z } from "zod";

// OpenAPI's objects, as Elysia's `detail` types them.
type Responses = NonNullable<DocumentDecoration["responses"]>;
type ResponseObject = Exclude<Responses[string], { $ref: string }>;
type RequestBodyObject = Exclude<NonNullable<DocumentDecoration["requestBody"]>, { $ref: string }>;
type MediaTypeObject = RequestBodyObject["content"][string];
type SchemaObject = Exclude<NonNullable<MediaTypeObject["schema"]>, { $ref: string }>;

export type Tag =
  | "Links"
  | "Domains"
  | "Webhooks"
  | "Workspaces"
  | "Account"
  | "Tokens"
  | "Sign-in"
  | "Billing"
  | "Meta";

/** A success answer: what it means; its JSON body's schema is the route's `response` for that status. */
export type Answer = {
  description: string;
  /** A content type other than JSON (an HTML page, a file); none for 204s and redirects. */
  contentType?: string;
  example?: unknown;
  /** Response headers worth a client's attention, by name: what each holds. */
  headers?: Record<string, string>;
};

export type RouteDoc = {
  /** Unique, stable: clients generated from the document name their functions after it. */
  id: string;
  tag: Tag;
  summary: string;
  description?: string;
  /**
   * Without a guard (`user`, `permission`) a route is public, unless: `optional`, anyone may call and a signed-in
   * caller gets more; `required`, the handler checks the caller itself (DELETE /api/account, which also serves a retry).
   */
  signIn?: "optional" | "required";
  answers: Record<number, string | Answer>;
  /** Error statuses the route may answer besides 401 and 403 (from its guard) and 500. */
  errors?: number[];
  /**
   * The request body beyond its schema: `form` also accepts it as a form, `multipart` as multipart/form-data with
   * an `image` file. `readByHandler`: the schema of a body the handler reads itself (the Stripe webhook's signed
   * bytes; an account deletion's, which its retry may leave out), documented only.
   */
  body?: { example?: unknown; form?: true; multipart?: true; readByHandler?: z.ZodType };
};

/** What each error status means here (the body is always an Error). */
export const ERROR_MEANINGS: Record<number, string> = {
  400: "Invalid input: the message names the field",
  401: "Not signed in: no session cookie or bearer token, or an expired or revoked one",
  402: "Your plan's limit is reached",
  403: "Refused: a write before the terms are accepted (POST /api/auth/consent), a cross-site write with the session cookie, or not allowed on your plan",
  404: "Not found, or not yours",
  409: "Conflicts with what exists (a slug taken)",
  413: "The upload is too large",
  429: "Too many requests (or too many new links): try again after the seconds Retry-After gives",
  500: "Something went wrong on our side",
  502: "The payment provider refused",
  503: "A service we depend on did not answer",
};

export const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** The security of a route that needs a signed-in caller: the session cookie or an API token. */
export const USER_SECURITY: NonNullable<DocumentDecoration["security"]> = [{ sessionCookie: [] }, { bearerToken: [] }];

const STRING = { type: "string" as const };

function answer(given: string | Answer): ResponseObject {
  const { description, contentType, example, headers } = typeof given === "string" ? { description: given } : given;
  const content = contentType
    ? { [contentType]: { schema: STRING } }
    : example !== undefined
      ? { "application/json": { example } }
      : undefined;
  return {
    description,
    ...(headers && {
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, meaning]) => [name, { description: meaning, schema: STRING }]),
      ),
    }),
    ...(content && { content }),
  };
}

const failure = (status: number): ResponseObject => ({
  description: ERROR_MEANINGS[status] ?? "Refused",
  content: { "application/json": { schema: ERROR_REF } },
});

function requestBody({ example, form, multipart, readByHandler }: NonNullable<RouteDoc["body"]>) {
  const json: MediaTypeObject = {
    ...(readByHandler && {
      schema: z.toJSONSchema(readByHandler, { io: "input", unrepresentable: "any" }) as SchemaObject,
    }),
    ...(example !== undefined && { example }),
  };
  const body: RequestBodyObject = {
    required: true,
    content: {
      "application/json": json,
      ...(form && { "application/x-www-form-urlencoded": {} }),
      ...(multipart && { "multipart/form-data": {} }),
    },
  };
  return body;
}

function operationDetail(doc: RouteDoc): DocumentDecoration {
  return {
    operationId: doc.id,
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description && { description: doc.description }),
    ...(doc.signIn && { security: doc.signIn === "optional" ? [{}, ...USER_SECURITY] : USER_SECURITY }),
    ...(doc.body && { requestBody: requestBody(doc.body) }),
    // An answer the route describes itself (a page for a failed sign-in) wins over the generic error.
    responses: {
      ...Object.fromEntries((doc.errors ?? []).map((status) => [status, failure(status)])),
      ...Object.fromEntries(Object.entries(doc.answers).map(([status, given]) => [status, answer(given)])),
    },
  };
}

export const documented = new Elysia({ name: "documented" }).macro({
  // The operation id also names the route's writes in the audit log (src/workspaces/audit-record.ts).
  doc: (doc: RouteDoc) => ({ detail: operationDetail(doc), resolve: () => ({ operationId: doc.id }) }),
});
