// Renders a page component inside the layout to a full HTML document. The page is rendered first, so that the
// layout knows whether any island was placed: a page without one gets no script at all.
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { Toast } from "../client/toast.ts";
import type { Db } from "../db/ports.ts";
import type { User } from "../db/tables.ts";
import type { VersionInfo } from "../meta/version.ts";
import { hasConsent } from "../auth/users.ts";
import { collectIslands } from "./island.tsx";
import { Layout } from "./layout.tsx";
import { viewerProps } from "./viewer.ts";

export type PageOptions = { title: string; status?: number; user?: User | null; flash?: Toast | null; headers?: Record<string, string> };

export type PageRenderer = {
  html: (page: ReactElement, options: PageOptions) => Promise<string>;
  response: (page: ReactElement, options: PageOptions) => Promise<Response>;
};

type RendererDeps = { version: VersionInfo; stylesheet: string; clientScript: string; db: Db; billingEnabled: boolean };

export function createPageRenderer(deps: RendererDeps): PageRenderer {
  const html = async (page: ReactElement, { title, user = null, flash = null }: PageOptions) => {
    const viewer = user ? await viewerProps(deps.db, deps.billingEnabled, user) : null;
    const needsConsent = user !== null && !(await hasConsent(deps.db, user.id));
    const main = collectIslands(() => renderToString(page));
    const hasIslands = main.islands.size > 0 || viewer !== null || flash !== null;
    return (
      "<!DOCTYPE html>" +
      renderToString(
        <Layout
          title={title}
          viewer={viewer}
          version={deps.version}
          stylesheet={deps.stylesheet}
          script={hasIslands ? deps.clientScript : null}
          toaster={hasIslands ? { initial: flash } : null}
          mainHtml={main.html}
          needsConsent={needsConsent}
        />,
      )
    );
  };
  return {
    html,
    response: async (page, options) =>
      new Response(await html(page, options), {
        status: options.status ?? 200,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...options.headers },
      }),
  };
}
