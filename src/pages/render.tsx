// Renders a page component inside the layout to a full HTML document.
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { VersionInfo } from "../meta/version.ts";
import { Layout, type Viewer } from "./layout.tsx";

export type PageOptions = { title: string; status?: number; viewer?: Viewer };

export type PageRenderer = {
  html: (page: ReactElement, options: PageOptions) => string;
  response: (page: ReactElement, options: PageOptions) => Response;
};

export function createPageRenderer(version: VersionInfo, stylesheet: string): PageRenderer {
  const html = (page: ReactElement, { title, viewer = null }: PageOptions) =>
    "<!DOCTYPE html>" +
    renderToString(
      <Layout title={title} viewer={viewer} version={version} stylesheet={stylesheet}>
        {page}
      </Layout>,
    );
  return {
    html,
    response: (page, options) =>
      new Response(html(page, options), {
        status: options.status ?? 200,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      }),
  };
}
