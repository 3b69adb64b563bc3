// The direction imports may take (npm run lint:imports, part of npm test): pages → domains → db/http, never back.
// Shared modules are those the browser and the CLI may use too: models, wire types, pure helpers.
const SHARED = "^src/(client/|bounded-memo\\.ts$|[a-z-]+/(model|wire)\\.ts$|previews/(lint|variants|platforms)\\.ts$|links/(url|qr-drawing)\\.ts$)";
/** The process entry points and composition roots: they wire everything, so they may import anything. */
const ROOTS = "^src/(server|app|app\\.worker|app-workers|context|admin|services|workers)\\.tsx?$";

module.exports = {
  forbidden: [
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
      to: { path: "^src/", pathNot: ["^src/db/", "^src/config\\.ts$", "^src/private-files\\.ts$", "^src/observability/(log|printable)\\.ts$", "^src/clock\\.ts$"] },
    },
    {
      name: "http-imports-no-domain",
      comment: "http/ holds request plumbing every domain uses; it must not reach up into them.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/", pathNot: ["^src/http/", "^src/config\\.ts$", "^src/clock\\.ts$", "^src/bounded-memo\\.ts$", "^src/observability/"] },
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
