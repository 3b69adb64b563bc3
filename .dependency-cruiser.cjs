// The direction imports may take (npm run lint:imports, part of npm test): pages → domains → db/http, never back.
// Shared modules are those the browser and the CLI may use too: models, wire types, pure helpers.
const SHARED =
  "^src/(client/|bounded-memo\\.ts$|[a-z-]+/(model|wire)\\.ts$|previews/(lint|variants|platforms)\\.ts$|links/(url|qr-drawing|qr-style-model|fetches-wire)\\.ts$)";
/**
 * The vocabulary every folder may name whatever its place in the order below: the shared modules and the few other
 * pure helpers (error and text helpers, the parsers the settings use, the response-shape check). They import only
 * one another (rule vocabulary-is-pure), so no behaviour flows up through them.
 */
const VOCABULARY = [
  SHARED,
  "^src/(http/(errors|text|flash-cookie)|links/own-addresses|safe-fetch/address-policy|safety/matching|api-docs/json)\\.ts$",
  "^src/safety/feeds/",
];
/** The process entry points and composition roots: they wire everything, so they may import anything. */
/** A thread's entry point: a root of its own thread, started (by URL) by the module in its folder that hosts it. */
const WORKER_ENTRIES = "^src/[a-z-]+/[a-z-]+\\.worker\\.ts$";
const ROOTS = `^src/(server|app|app\\.worker|services|compose/[a-z-]+)\\.tsx?$|${WORKER_ENTRIES}`;
/**
 * A folder's HTTP surface: its routes and the sign-in guard they all use. A surface may reach any domain (it is
 * where requests meet them); only the roots, pages/, api-docs/ and other surfaces import it (rule surface-from-above).
 */
const SURFACE = "^src/([a-z-]+/[a-z-]*routes\\.tsx?|auth/(plugin|guards)\\.ts)$";
/**
 * The declared domain order (docs/decisions/0051), lowest first: a folder may import only itself and the folders
 * before it (and the vocabulary), so two folders that import each other fail lint:imports. Each entry is one
 * place; a new folder must be given one (rule placed-in-the-order).
 */
const ORDER = [
  ["leaves", "^src/(config/|utm/|clock\\.ts$|private-files\\.ts$|workers\\.ts$|assets\\.d\\.ts$)"],
  ["client", "^src/client/"],
  ["observability", "^src/observability/"],
  ["http", "^src/http/"],
  ["mail", "^src/mail/"],
  ["db", "^src/db/"],
  ["safe-fetch", "^src/safe-fetch/"],
  ["threads", "^src/threads/"],
  ["previews", "^src/previews/"],
  ["plans", "^src/plans/"],
  ["workspaces", "^src/workspaces/"],
  ["link-cache", "^src/link-cache/"],
  ["webhooks", "^src/webhooks/"],
  ["views", "^src/views/"],
  ["safety", "^src/safety/"],
  ["rules", "^src/rules/"],
  ["domains", "^src/domains/"],
  ["billing", "^src/billing/"],
  ["links", "^src/links/"],
  ["go", "^src/go/"],
  ["auth", "^src/auth/"],
  ["members", "^src/members/"],
  ["account", "^src/account/"],
  ["meta", "^src/meta/"],
  ["metrics", "^src/metrics/"],
  ["api-docs", "^src/api-docs/"],
  ["pages", "^src/pages/"],
  ["start", "^src/start/"],
  ["admin", "^src/admin/"],
  ["jobs", "^src/jobs/"],
];
const domainOrder = ORDER.map(([name, path], place) => ({
  name: `domain-order-${name}`,
  comment: `${name} may import only ${ORDER.slice(0, place)
    .map(([below]) => below)
    .join(", ")} (and itself and the vocabulary): move what both sides need below, or the import up to a root.`,
  severity: "error",
  from: { path, pathNot: [SURFACE] },
  to: { path: "^src/", pathNot: [ROOTS, ...VOCABULARY, ...ORDER.slice(0, place + 1).map(([, below]) => below)] },
}));

module.exports = {
  forbidden: [
    ...domainOrder,
    {
      name: "placed-in-the-order",
      comment: "Every file under src/ is a root, a surface or in a folder of ORDER: give a new folder its place.",
      severity: "error",
      from: { path: "^src/", pathNot: [ROOTS, SURFACE, ...ORDER.map(([, path]) => path)] },
      to: {},
    },
    {
      name: "roots-from-roots",
      comment:
        "The roots are the top of the order: only a root imports one, not even as a type (routes and pages declare the deps they take; src/app.ts builds them).",
      severity: "error",
      from: { path: "^src/", pathNot: [ROOTS] },
      to: { path: ROOTS, pathNot: [WORKER_ENTRIES] },
    },
    {
      name: "surface-from-above",
      comment: "Routes and the sign-in guard are the top of their folder: only roots, pages, api-docs and surfaces use them.",
      severity: "error",
      from: { path: "^src/", pathNot: [ROOTS, SURFACE, "^src/(pages|api-docs)/"] },
      to: { path: SURFACE },
    },
    {
      name: "vocabulary-is-pure",
      comment: "The vocabulary (VOCABULARY above) imports only itself, so any folder may use it without a cycle.",
      severity: "error",
      from: { path: VOCABULARY },
      to: { path: "^src/", pathNot: VOCABULARY },
    },
    { name: "no-cycles", comment: "An import cycle: split the shared part into its own module.", severity: "error", from: {}, to: { circular: true } },
    {
      name: "domains-never-import-pages",
      comment: "Pages depend on domains, never the reverse: hand the domain's result to a page, or move the shared piece out of pages/.",
      severity: "error",
      from: { path: "^src/", pathNot: [ROOTS, "^src/pages/"] },
      to: { path: "^src/pages/" },
    },
    {
      name: "db-imports-no-domain",
      comment: "db/ is the bottom layer: it knows tables and engines (and the logger and clock), not domains, pages or http.",
      severity: "error",
      from: { path: "^src/db/" },
      to: { path: "^src/", pathNot: ["^src/db/", "^src/config/config\\.ts$", "^src/private-files\\.ts$", "^src/observability/(log|printable)\\.ts$", "^src/clock\\.ts$"] },
    },
    {
      name: "http-imports-no-domain",
      comment: "http/ holds request plumbing every domain uses; it must not reach up into them.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/", pathNot: ["^src/http/", "^src/config/config\\.ts$", "^src/clock\\.ts$", "^src/bounded-memo\\.ts$", "^src/observability/"] },
    },
    {
      name: "islands-import-only-shared",
      comment: "Islands run in the browser: they may use src/client/, models, wire types and pure helpers, nothing of the server.",
      severity: "error",
      from: { path: "^islands/" },
      to: { path: "^src/", pathNot: [SHARED] },
    },
    {
      name: "cli-client-imports-only-shared",
      comment: "The CLI's client commands speak HTTP: they may use models and wire types from src/, not services.",
      severity: "error",
      from: { path: "^cli/client/" },
      to: { path: "^src/", pathNot: [SHARED, "^src/http/errors\\.ts$"] },
    },
    {
      name: "sdk-imports-nothing-of-the-server",
      comment:
        "The SDK (packages/sdk, published as @linkprev/sdk) is its generated types and openapi-fetch: nothing of the server, the CLI or Node's own modules (docs/decisions/0061).",
      severity: "error",
      from: { path: "^packages/sdk/" },
      to: { pathNot: ["^packages/sdk/src/", "(^|/)node_modules/openapi-fetch/"] },
    },
    {
      name: "only-the-cli-client-uses-the-sdk",
      comment: "The server describes the API the SDK is generated from; only the CLI's client commands call it.",
      severity: "error",
      from: { pathNot: ["^cli/client/", "^packages/sdk/"] },
      to: { path: "^packages/sdk/" },
    },
    {
      name: "no-unresolvable",
      comment: "An import that resolves to nothing.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
