// The frame of every page: top bar, main content, footer.
import type { ReactNode } from "react";
import { formatVersion, type VersionInfo } from "../meta/version.ts";

export type Viewer = { displayName: string; initials: string; profileImageUrl: string | null } | null;

export type LayoutProps = { title: string; viewer: Viewer; version: VersionInfo; stylesheet: string; children: ReactNode };

function TopBar({ viewer }: { viewer: Viewer }) {
  return (
    <header className="topbar">
      <nav aria-label="Main">
        <a className="brand" href="/">LinkPrev</a>
        <a href="/about">About</a>
        <a href="/pricing">Pricing</a>
        <a href="/contact">Contact</a>
      </nav>
      {viewer ? (
        <a className="avatar" href="/admin" title={viewer.displayName}>
          {viewer.profileImageUrl ? <img src={viewer.profileImageUrl} alt="" width={32} height={32} /> : viewer.initials}
        </a>
      ) : (
        <a className="button" href="/api/auth/google">Access</a>
      )}
    </header>
  );
}

function Footer({ version }: { version: VersionInfo }) {
  return (
    <footer className="footer">
      <p>Create custom link previews for social media sharing, no code required.</p>
      <nav aria-label="Footer">
        <a href="/#features">Features</a>
        <a href="/#pricing">Pricing</a>
        <a href="/about">About</a>
        <a href="/contact">Contact</a>
        <a href="/privacy">Privacy</a>
        <a href="/terms">Terms</a>
      </nav>
      <p>
        © {new Date().getFullYear()} LinkPrev · <span className="version">{formatVersion(version)}</span>
      </p>
    </footer>
  );
}

export function Layout({ title, viewer, version, stylesheet, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · LinkPrev`}</title>
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        <TopBar viewer={viewer} />
        <main id="main">{children}</main>
        <Footer version={version} />
      </body>
    </html>
  );
}
