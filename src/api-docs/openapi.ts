// The OpenAPI 3.1 document, generated from the operations list and its zod schemas (never written by hand).
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { WEBHOOK_BODIES } from "../webhooks/wire.ts";
import { API_OPERATIONS } from "./operations.ts";
import { ErrorSchema, type ApiOperation } from "./operation-types.ts";

type JsonSchema = Record<string, unknown>;

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

/** `/api/links/:id` → `/api/links/{id}`; Elysia's prefix root `/api/links/` → `/api/links`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/(.)\/$/, "$1");

const USER_SECURITY = [{ sessionCookie: [] }, { bearerToken: [] }];

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

const inline = (schema: z.ZodType): JsonSchema =>
  clean(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);

function parameters(operation: ApiOperation) {
  const from = (where: "path" | "query", object: z.ZodObject | undefined) =>
    Object.entries(object?.shape ?? {}).map(([name, schema]) => {
      const json = inline(schema as z.ZodType);
      return {
        name,
        in: where,
        required: where === "path" || !(schema as z.ZodType).safeParse(undefined).success,
        ...(json.description ? { description: json.description } : {}),
        schema: json,
      };
    });
  return [...from("path", operation.params), ...from("query", operation.query)];
}

/** The document. `serverUrl`: this server's PUBLIC_URL. */
export type OpenApiDocument = ReturnType<typeof openApiDocument>;

export function openApiDocument(info: { version: string; serverUrl: string }) {
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
  const errorRef = componentRef(outputs, ErrorSchema, "Error");

  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of API_OPERATIONS) {
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(operation.responses)) {
      const content = response.schema
        ? {
            "application/json": {
              schema: componentRef(
                outputs,
                response.schema,
                `${operation.operationId}${status === "200" ? "" : status}Response`,
              ),
              ...(response.example !== undefined ? { example: response.example } : {}),
            },
          }
        : response.contentType
          ? { [response.contentType]: { schema: { type: "string" } } }
          : undefined;
      const headers =
        response.headers &&
        Object.fromEntries(
          Object.entries(response.headers).map(([name, description]) => [
            name,
            { description, schema: { type: "string" } },
          ]),
        );
      responses[status] = {
        description: response.description,
        ...(headers ? { headers } : {}),
        ...(content ? { content } : {}),
      };
    }
    // Every signed-in write may meet the terms check (src/auth/plugin.ts).
    const write = operation.access === "user" && operation.method !== "GET";
    const errors = new Set([
      ...(operation.errors ?? []),
      ...(operation.access === "user" ? [401] : []),
      ...(write ? [403] : []),
      500,
    ]);
    for (const status of [...errors].sort()) {
      responses[String(status)] ??= {
        description: ERROR_MEANINGS[status] ?? "Refused",
        content: { "application/json": { schema: errorRef } },
      };
    }
    let requestBody: unknown;
    if (operation.body) {
      const schema = componentRef(inputs, operation.body.schema, `${operation.operationId}Body`);
      const example = operation.body.example !== undefined ? { example: operation.body.example } : {};
      requestBody = {
        required: true,
        content: {
          "application/json": { schema, ...example },
          ...(operation.body.form ? { "application/x-www-form-urlencoded": { schema } } : {}),
          ...(operation.body.multipart
            ? {
                "multipart/form-data": {
                  schema: {
                    allOf: [
                      schema,
                      {
                        type: "object",
                        properties: {
                          image: {
                            type: "string",
                            contentMediaType: "application/octet-stream",
                            description: "An image for the card",
                          },
                        },
                      },
                    ],
                  },
                },
              }
            : {}),
        },
      };
    }
    const params = parameters(operation);
    (paths[openApiPath(operation.path)] ??= {})[operation.method.toLowerCase()] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      security:
        operation.access === "user" ? USER_SECURITY : operation.access === "optional" ? [{}, ...USER_SECURITY] : [],
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
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
    tags: [...new Set(API_OPERATIONS.map((operation) => operation.tag))].map((name) => ({ name })),
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
