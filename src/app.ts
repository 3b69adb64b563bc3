// Builds the Elysia app from the feature modules and the services (src/services.ts): hands each folder's routes the
// deps they declare; no logic of its own.
import { Elysia } from "elysia";
import { openApiDocument, type OpenApiDocument } from "./api-docs/openapi.ts";
import { apiDocsRoutes } from "./api-docs/routes.ts";
import type { SessionDeps } from "./auth/session-deps.ts";
import { accountRoutes } from "./account/routes.ts";
import { loginMailRoutes } from "./auth/login-mail-routes.ts";
import { authRoutes } from "./auth/routes.ts";
import { tokenRoutes } from "./auth/token-routes.ts";
import { billingRoutes } from "./billing/routes.ts";
import { domainRoutes } from "./domains/routes.ts";
import { errorHandler } from "./http/error-handler.ts";
import { pathEncoding } from "./http/path-encoding.ts";
import { plainQuery } from "./http/plain-query.ts";
import { perLinkRoutes } from "./links/per-link-routes.ts";
import { qrStyleRoutes } from "./links/qr-style-routes.ts";
import { linkRoutes } from "./links/routes.ts";
import { memberRoutes } from "./members/routes.ts";
import { metaRoutes } from "./meta/routes.ts";
import { formatVersion } from "./meta/version.ts";
import { requestFacts } from "./observability/request-facts.ts";
import { errorPages } from "./pages/error.tsx";
import { pageRoutes } from "./pages/routes.ts";
import { loginMailScreens, signInScreens } from "./pages/sign-in.tsx";
import { resolvePageViewer } from "./pages/viewer.ts";
import { safetyRoutes } from "./safety/routes.ts";
import type { Services } from "./services.ts";
import { webhookRoutes } from "./webhooks/routes.ts";
import type { Acting } from "./workspaces/acting.ts";
import { auditRoutes } from "./workspaces/audit-routes.ts";
import { workspaceRoutes } from "./workspaces/routes.ts";

export function createApp(services: Services) {
  // The API described (GET /api/openapi.json, /docs/api), from the routes' own declarations (src/api-docs/): built
  // once, on its first reading, when every route is mounted.
  let described: OpenApiDocument | undefined;
  const apiDocument = (): OpenApiDocument =>
    (described ??= openApiDocument(
      { version: formatVersion(services.version), serverUrl: services.config.publicUrl },
      app.routes,
    ));
  const resolveViewer = (acting: Acting) =>
    resolvePageViewer(services.db, services.billingEnabled, acting, services.clock.now());
  const errorPage = errorPages(services.pages, resolveViewer);
  // Each folder's routes get what they declare they need (their *RouteDeps), never the whole of the services.
  const session: SessionDeps = {
    db: services.db,
    clock: services.clock,
    publicUrl: services.config.publicUrl,
    secureCookies: services.config.secureCookies,
  };
  const { links, billing, domains, webhooks, authLimiter, log } = services;
  const app = new Elysia()
    .use(requestFacts())
    .use(errorHandler(errorPage, services.log))
    .use(pathEncoding())
    .use(plainQuery())
    .use(
      metaRoutes({
        version: services.version,
        testSlowRouteMs: services.config.testSlowRouteMs,
        port: services.config.port,
      }),
    )
    .use(
      authRoutes(
        { session, database: services.database, authLimiter, google: services.config.google, log },
        signInScreens(services.pages, resolveViewer, services.mailer !== null),
      ),
    )
    .use(tokenRoutes({ session, authLimiter }))
    .use(
      loginMailRoutes(
        {
          session,
          database: services.database,
          mailer: services.mailer,
          authLimiter,
          mailLimiter: services.mailLimiter,
          log,
        },
        loginMailScreens(services.pages),
      ),
    )
    .use(linkRoutes({ links, fetchLimiter: services.fetchLimiter, publicUrl: services.config.publicUrl, session }))
    .use(perLinkRoutes({ links, session }))
    .use(qrStyleRoutes({ links, fetchLimiter: services.fetchLimiter, session }))
    .use(domainRoutes({ domains, checkLimiter: services.domainCheckLimiter, session }))
    .use(billingRoutes({ billing, authLimiter, session }))
    .use(webhookRoutes({ webhooks, sendLimiter: services.webhookSendLimiter, session }))
    .use(workspaceRoutes({ workspaces: services.workspaces, session }))
    .use(auditRoutes({ db: services.db, session }))
    .use(memberRoutes({ members: services.members, session }))
    .use(apiDocsRoutes(apiDocument))
    .use(
      accountRoutes({
        db: services.db,
        clock: services.clock,
        log,
        publicUrl: services.config.publicUrl,
        links,
        deletion: services.deletion,
        session,
      }),
    )
    .use(safetyRoutes({ safety: services.safety, reportLimiter: services.reportLimiter }))
    .use(
      pageRoutes(
        {
          config: services.config,
          db: services.db,
          clock: services.clock,
          log,
          pages: services.pages,
          billingEnabled: services.billingEnabled,
          links,
          domains,
          billing,
          webhooks,
          members: services.members,
          session,
        },
        apiDocument,
      ),
    );
  return app;
}

/** "METHOD /path" for each route of the app. */
export const routeList = (app: ReturnType<typeof createApp>) =>
  app.routes.map((route) => `${route.method} ${route.path}`);
