// The shape of one /api operation's description (operations.ts lists them; openapi.ts turns them into the document).
import { z } from "zod";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Who may call: a signed-in user (session cookie or bearer token), anyone, or anyone with more for a user. */
export type Access = "user" | "public" | "optional";

export type ApiResponse = {
  description: string;
  /** JSON body; none for 204s and redirects. */
  schema?: z.ZodType;
  /** A content type other than JSON (an HTML page, a file). */
  contentType?: string;
  example?: unknown;
  /** Response headers worth a client's attention, by name: what each holds. */
  headers?: Record<string, string>;
};

export type ApiOperation = {
  method: HttpMethod;
  /** The path as the server routes it (Elysia syntax, `:param`). */
  path: string;
  /** Unique, stable: clients generated from the document name their functions after it. */
  operationId: string;
  tag: "Links" | "Domains" | "Webhooks" | "Account" | "Tokens" | "Sign-in" | "Billing" | "Meta";
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The request body; `multipart` also accepts the fields as multipart/form-data (with an `image` file). */
  body?: { schema: z.ZodType; form?: boolean; multipart?: boolean; example?: unknown };
  /** Success answers; the error answers (400, 401, 403, 404, …) are added from `errors`. */
  responses: Record<number, ApiResponse>;
  /** Error statuses this operation may answer besides 401 (added for `user` access) and 500. */
  errors?: number[];
};

/** Every /api failure: a readable message, and the input field it is about when there is one. */
export const ErrorSchema = z
  .object({
    message: z.string().describe("Readable by the person using the client"),
    field: z.string().optional().describe("The input field the message is about"),
  })
  .meta({ id: "Error", example: { message: "title: Title must be 60 characters or less", field: "title" } });
