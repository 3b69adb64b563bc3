// Renders a page component inside the layout to a full HTML document. The page is rendered first, so that the
// layout knows whether any island was placed: a page without one gets no script at all. It queries nothing: the
// viewer arrives resolved (src/pages/viewer.ts).
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { Clock } from "../clock.ts";
import type { Toast } from "../http/flash-cookie.ts";
import type { VersionInfo } from "../meta/version.ts";
import { collectIslands } from "./island.tsx";
import { Layout } from "./layout.tsx";
import { switcherProps, viewerProps, type PageViewer } from "./viewer.ts";

export type PageOptions = {
  title: string;
  status?: number;
  viewer?: PageViewer | null;
  flash?: Toast | null;
  headers?: Record<string, string>;
};

export type PageRenderer = {
  html: (page: ReactElement, options: PageOptions) => string;
  response: (page: ReactElement, options: PageOptions) => Response;
};

type RendererDeps = {
  version: VersionInfo;
  stylesheet: string;
  clientScript: string;
  googleSignIn: boolean;
  /** The footer's year. */
  clock: Clock;
};

export function createPageRenderer(deps: RendererDeps): PageRenderer {
  const html = (page: ReactElement, { title, viewer = null, flash = null }: PageOptions) => {
    const menu = viewer ? viewerProps(viewer) : null;
    const main = collectIslands(page);
    const hasIslands = main.islands.size > 0 || menu !== null || flash !== null;
    return (
      "<!DOCTYPE html>" +
      renderToString(
        <Layout
          title={title}
          viewer={menu}
          workspaces={viewer ? switcherProps(viewer) : null}
          version={deps.version}
          year={new Date(deps.clock.now()).getFullYear()}
          stylesheet={deps.stylesheet}
          script={hasIslands ? deps.clientScript : null}
          toaster={hasIslands ? { initial: flash } : null}
          mainHtml={main.html}
          needsConsent={viewer?.needsConsent ?? false}
          googleSignIn={deps.googleSignIn}
        />,
      )
    );
  };
  return {
    html,
    response: (page, options) =>
      new Response(html(page, options), {
        status: options.status ?? 200,
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...options.headers },
      }),
  };
}
