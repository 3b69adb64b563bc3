// GET /docs/api: the API reference, drawn on the server from the same OpenAPI document /api/openapi.json serves
// (no script, nothing from another site): an index, a page per tag (/docs/api/links, …) and one of the schemas
// (/docs/api/schemas), so that no page carries the whole document to a phone.
import type { openApiDocument } from "../api-docs/openapi.ts";
import { InlineMarkdown } from "./markdown.tsx";

type Document = ReturnType<typeof openApiDocument>;
type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Record<string, unknown>[];
  parameters?: { name: string; in: string; required: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema; example?: unknown }> }>;
};

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** A schema as a short type: `string | null`, `Link[]`, `"upload" | "ai"`. */
function typeText(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(typeText).join(" | ");
  if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map(typeText).join(" & ");
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      if (type === "array") return `${typeText(schema.items as Schema)}[]`;
      if (type === "string" && typeof schema.format === "string") return `string (${schema.format})`;
      if (type === "object" && !schema.properties) return "object";
      return type ?? "object";
    })
    .join(" | ");
}

function Fields({ schema }: { schema: Schema }) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  if (Object.keys(properties).length === 0) return <p className="text-sm text-gray-600">{typeText(schema)}</p>;
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="border-b border-gray-200">
          <th className="py-1 pr-4">Field</th>
          <th className="py-1 pr-4">Type</th>
          <th className="py-1">Notes</th>
        </tr>
      </thead>
      <tbody>
        {Object.entries(properties).map(([name, field]) => (
          <tr key={name} className="border-b border-gray-100 align-top">
            <td className="py-1 pr-4 font-mono">
              {name}
              {required.has(name) ? "" : "?"}
            </td>
            <td className="py-1 pr-4 font-mono">{typeText(field)}</td>
            <td className="py-1 text-gray-600">
              <InlineMarkdown
                text={[
                  field.description,
                  field.maxLength !== undefined ? `at most ${field.maxLength} characters` : null,
                ]
                  .filter(Boolean)
                  .join("; ")}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const SchemaRef = ({ schema }: { schema: Schema }) =>
  typeof schema.$ref === "string" ? (
    <a className="font-mono text-indigo-700 underline" href={`${SCHEMAS_PATH}#schema-${refName(schema.$ref)}`}>
      {refName(schema.$ref)}
    </a>
  ) : (
    <span className="font-mono">{typeText(schema)}</span>
  );

const access = (security: Record<string, unknown>[]) =>
  security.length === 0
    ? "Public"
    : Object.keys(security[0]!).length === 0
      ? "Public; more when signed in"
      : "Signed in: session cookie or bearer token";

function OperationSection({ method, path, operation }: { method: string; path: string; operation: Operation }) {
  const body = operation.requestBody?.content;
  return (
    <article id={operation.operationId} className="mt-6 rounded-md border border-gray-200 p-4">
      <h2 className="font-mono text-lg font-semibold">{`${method.toUpperCase()} ${path}`}</h2>
      <p className="mt-1">{operation.summary}</p>
      {operation.description ? (
        <InlineMarkdown as="p" className="mt-1 text-gray-600" text={operation.description} />
      ) : null}
      <p className="mt-1 text-sm text-gray-600">{access(operation.security)}</p>
      {operation.parameters ? (
        <>
          <h3 className="mt-3 font-semibold">Parameters</h3>
          <ul className="text-sm">
            {operation.parameters.map((parameter) => (
              <li key={parameter.name}>
                <span className="font-mono">{parameter.name}</span> ({parameter.in}
                {parameter.required ? ", required" : ""}):{" "}
                <span className="font-mono">{typeText(parameter.schema)}</span>
                {parameter.description ? <InlineMarkdown text={` — ${parameter.description}`} /> : ""}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {body ? (
        <>
          <h3 className="mt-3 font-semibold">Body</h3>
          <p className="text-sm">
            {Object.keys(body).join(", ")}: <SchemaRef schema={Object.values(body)[0]!.schema} />
          </p>
          {Object.values(body)[0]!.example !== undefined ? (
            <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-gray-50 p-2 text-sm">
              {JSON.stringify(Object.values(body)[0]!.example, null, 2)}
            </pre>
          ) : null}
        </>
      ) : null}
      <h3 className="mt-3 font-semibold">Responses</h3>
      <ul className="text-sm">
        {Object.entries(operation.responses).map(([status, response]) => {
          const json = response.content?.["application/json"];
          return (
            <li key={status}>
              <span className="font-mono">{status}</span> <InlineMarkdown text={response.description} />
              {json ? (
                <>
                  {" — "}
                  <SchemaRef schema={json.schema} />
                </>
              ) : null}
              {json?.example !== undefined ? (
                <pre tabIndex={0} className="mt-1 overflow-x-auto rounded bg-gray-50 p-2">
                  {JSON.stringify(json.example, null, 2)}
                </pre>
              ) : null}
            </li>
          );
        })}
      </ul>
    </article>
  );
}

const SCHEMAS_PATH = "/docs/api/schemas";
/** A tag's page: `Sign-in` → /docs/api/sign-in. */
export const tagPath = (tag: string) => `/docs/api/${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );

/** What /docs/api/{section} shows: a tag's operations, or the schemas; null: no such section. */
export function apiReferenceSection(document: Document, section: string): { tag: string | null } | null {
  if (`/docs/api/${section}` === SCHEMAS_PATH) return { tag: null };
  const tag = document.tags.find(({ name }) => tagPath(name) === `/docs/api/${section}`);
  return tag ? { tag: tag.name } : null;
}

/** GET /docs/api: what the API is, where tokens are made, and every operation by tag, each a link to its page. */
export function ApiReferencePage({ document }: { document: Document }) {
  const operations = operationsOf(document);
  return (
    <section>
      <h1 className="text-3xl font-bold">API reference</h1>
      <InlineMarkdown as="p" className="mt-4 text-gray-600" text={document.info.description} />
      <p className="mt-2" data-testid="token-where">
        Your API tokens:{" "}
        <a className="text-indigo-700 underline" href="/admin/workspace/tokens">
          Workspace settings → API tokens
        </a>{" "}
        (sign in first), or <span className="font-mono">linkprev admin token create</span> on the server.
      </p>
      <p className="mt-2">
        The machine-readable document:{" "}
        <a className="text-indigo-700 underline" href="/api/openapi.json">
          /api/openapi.json
        </a>{" "}
        (OpenAPI {document.openapi}). The command-line client <span className="font-mono">linkprev</span> uses the same
        API.
      </p>
      <nav aria-label="Operations" className="mt-4">
        {document.tags.map(({ name }) => (
          <p key={name} className="text-sm">
            <a className="font-semibold text-indigo-700 underline" href={tagPath(name)}>
              {name}
            </a>
            :{" "}
            {operations
              .filter(({ operation }) => operation.tags[0] === name)
              .map(({ operation }, index) => (
                <span key={operation.operationId}>
                  {index > 0 ? " · " : ""}
                  <a className="text-indigo-700 underline" href={`${tagPath(name)}#${operation.operationId}`}>
                    {operation.operationId}
                  </a>
                </span>
              ))}
          </p>
        ))}
        <p className="mt-3 text-sm">
          The shapes the operations answer and take:{" "}
          <a className="font-semibold text-indigo-700 underline" href={SCHEMAS_PATH}>
            Schemas
          </a>
        </p>
      </nav>
    </section>
  );
}

/** GET /docs/api/{tag}: that tag's operations; GET /docs/api/schemas (tag null): the schemas they refer to. */
export function ApiReferenceSectionPage({ document, tag }: { document: Document; tag: string | null }) {
  const schemas = document.components.schemas as Record<string, Schema>;
  return (
    <section>
      <p className="text-sm">
        <a className="text-indigo-700 underline" href="/docs/api">
          API reference
        </a>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{tag ?? "Schemas"}</h1>
      {tag !== null
        ? operationsOf(document)
            .filter(({ operation }) => operation.tags[0] === tag)
            .map((entry) => <OperationSection key={entry.operation.operationId} {...entry} />)
        : Object.entries(schemas).map(([name, schema]) => (
            <article key={name} id={`schema-${name}`} className="mt-4">
              <h2 className="font-mono text-lg font-semibold">{name}</h2>
              <Fields
                schema={
                  schema.type === "array"
                    ? (schema.items as Schema).$ref
                      ? { type: "array", items: schema.items }
                      : (schema.items as Schema)
                    : schema
                }
              />
            </article>
          ))}
    </section>
  );
}
