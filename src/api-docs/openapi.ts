// The OpenAPI 3.1 document, generated from the routes themselves (docs/decisions/0055): each documented route's
// `doc` (documented.ts) and the zod schemas it validates with (body, query, params, response). Never written by hand.
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { WEBHOOK_BODIES } from "../webhooks/wire.ts";
import { ERROR_MEANINGS, ERROR_REF } from "./documented.ts";

type JsonSchema = Record<string, unknown>;

/** Every /api failure: a readable message, and the input field it is about when there is one. */
export const ErrorSchema = z
  .object({
    message: z.string().describe("Readable by the person using the client"),
    field: z.string().optional().describe("The input field the message is about"),
  })
  .meta({ id: "Error", example: { message: "title: Title must be 60 characters or less", field: "title" } });

/** A route as Elysia lists it (`app.routes`): its hooks hold the `detail` its `doc` wrote and its schemas. */
export type ServedRoute = {
  method: string;
  path: string;
  hooks: { detail?: unknown; body?: unknown; query?: unknown; params?: unknown; response?: unknown };
};

/** The OpenAPI operation a route's `doc` wrote (documented.ts), before its schemas are added. */
type Detail = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { required: boolean; content: Record<string, { schema?: unknown; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown; example?: unknown }> }>;
};

const isDetail = (detail: unknown): detail is Detail =>
  typeof detail === "object" && detail !== null && "operationId" in detail && "responses" in detail;
const zodOrNothing = (schema: unknown) => (schema instanceof z.ZodType ? schema : undefined);

/** `/api/links/:id` → `/api/links/{id}`; Elysia's prefix root `/api/links/` → `/api/links`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/(.)\/$/, "$1");

/** The routes the document describes: those with a `doc`. */
export const documentedRoutes = <R extends ServedRoute>(routes: R[]) =>
  routes.filter((route) => isDetail(route.hooks.detail));

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const inline = (schema: z.ZodType): JsonSchema =>
  clean(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);

function parameters(params: z.ZodType | undefined, query: z.ZodType | undefined) {
  const from = (where: "path" | "query", object: z.ZodType | undefined) =>
    Object.entries(object instanceof z.ZodObject ? object.shape : {}).map(([name, schema]) => {
      const json = inline(schema as z.ZodType);
      return {
        name,
        in: where,
        required: where === "path" || !(schema as z.ZodType).safeParse(undefined).success,
        ...(json.description ? { description: json.description } : {}),
        schema: json,
      };
    });
  return [...from("path", params), ...from("query", query)];
}

/** An example that its schema refuses is a mistake in the route's doc: the document is not built. */
function checkExample(schema: z.ZodType, example: unknown, at: string) {
  if (example !== undefined && !schema.safeParse(example).success) throw new Error(`${at}: the example fits no schema`);
}

/** The document. `serverUrl`: this server's PUBLIC_URL. */
export type OpenApiDocument = ReturnType<typeof openApiDocument>;

export function openApiDocument(info: { version: string; serverUrl: string }, routes: ServedRoute[]) {
  // Request and response schemas become components, named after their meta id or their first operation, so that
  // a schema used by several operations (LinkInput, Link) is written once.
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  const used = new Set<string>();
  const componentRef = (registry: typeof inputs, schema: z.ZodType, fallback: string) => {
    let id = registry.get(schema)?.id;
    if (!id) {
      id = (z.globalRegistry.get(schema)?.id as string | undefined) ?? fallback;
      if (used.has(id)) throw new Error(`two OpenAPI components named ${id}`);
      used.add(id);
      registry.add(schema, { id });
    }
    return { $ref: `#/components/schemas/${id}` };
  };
  componentRef(outputs, ErrorSchema, "Error");

  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const { method, path, hooks } of routes) {
    const detail = hooks.detail;
    if (!isDetail(detail)) continue;
    const { operationId } = detail;
    const responses = structuredClone(detail.responses);
    const declared = typeof hooks.response === "object" && hooks.response !== null ? hooks.response : {};
    for (const [status, given] of Object.entries(declared)) {
      const schema = zodOrNothing(given);
      const response = responses[status];
      if (!schema || !response) continue;
      const json = (response.content ??= {})["application/json"] ?? {};
      checkExample(schema, json.example, `${operationId} ${status}`);
      const name = `${operationId}${status === "200" ? "" : status}Response`;
      response.content["application/json"] = { schema: componentRef(outputs, schema, name), ...json };
    }
    // A signed-in route may answer 401, and a signed-in write 403 (the terms check, src/auth/plugin.ts).
    const security = detail.security ?? [];
    const signedIn = security.length > 0 && security.every((scheme) => Object.keys(scheme).length > 0);
    for (const status of [...(signedIn ? [401] : []), ...(signedIn && method !== "GET" ? [403] : []), 500])
      responses[String(status)] ??= {
        description: ERROR_MEANINGS[status] ?? "Refused",
        content: { "application/json": { schema: ERROR_REF } },
      };
    const body = zodOrNothing(hooks.body);
    let requestBody = detail.requestBody;
    if (body) {
      const schema = componentRef(inputs, body, `${operationId}Body`);
      const content = requestBody?.content ?? { "application/json": {} };
      checkExample(body, content["application/json"]?.example, `${operationId} body`);
      for (const type of Object.keys(content)) content[type] = { schema, ...content[type] };
      requestBody = { required: true, content };
    }
    const params = parameters(zodOrNothing(hooks.params), zodOrNothing(hooks.query));
    for (const tag of detail.tags) tags.add(tag);
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = {
      ...detail,
      security,
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  // Webhook events (src/webhooks/wire.ts): what LinkPrev posts to subscribed endpoints.
  const webhooks: Record<string, unknown> = {};
  for (const [type, schema] of WEBHOOK_BODIES) {
    webhooks[type] = {
      post: {
        summary: `${type}, signed per standardwebhooks.com (webhook-id, webhook-timestamp, webhook-signature)`,
        requestBody: {
          required: true,
          content: { "application/json": { schema: componentRef(outputs, schema, type) } },
        },
        responses: {
          "2XX": { description: "Received; any other answer is retried (about 5 s, 1 min, 10 min, 1 h, 6 h, 24 h)" },
        },
      },
    };
  }

  const schemas: Record<string, JsonSchema> = {};
  for (const [registry, io] of [
    [inputs, "input"],
    [outputs, "output"],
  ] as const) {
    const converted = z.toJSONSchema(registry, {
      io,
      unrepresentable: "any",
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, JsonSchema> };
    // Named schemas found inside others (LintWarning in Link) land in zod's "__shared": each becomes a component.
    const { __shared: shared, ...named } = JSON.parse(
      JSON.stringify(converted.schemas).replaceAll("#/components/schemas/__shared#/$defs/", "#/components/schemas/"),
    ) as Record<string, JsonSchema>;
    const all = { ...named, ...((shared?.$defs as Record<string, JsonSchema> | undefined) ?? {}) };
    for (const [id, schema] of Object.entries(all)) {
      if (id in schemas) throw new Error(`two OpenAPI components named ${id}`);
      schemas[id] = clean(schema);
    }
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "LinkPrev API",
      version: info.version,
      description:
        'Short links with a custom preview card. Authenticate with the session cookie (the web app) or an API token (`Authorization: Bearer lp_…`, created on the dashboard under Subscription → API tokens, with `linkprev admin token create`, or with `POST /api/tokens`). Writes with the cookie must come from the site itself (CSRF); bearer calls may come from anywhere. Every failure answers `{"message": …}` (and `field` when one input field is at fault).',
    },
    servers: [{ url: info.serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas,
      securitySchemes: {
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description: "Set by signing in on the web site",
        },
        bearerToken: { type: "http", scheme: "bearer", description: "An API token (lp_…)" },
      },
    },
  };
}
