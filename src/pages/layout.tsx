// The frame of every page: top bar, main content, footer, and (when needed) the toaster and the island script.
import type { AvatarMenuProps } from "../../islands/AvatarMenu.tsx";
import type { WorkspaceSwitcherProps } from "../../islands/WorkspaceSwitcher.tsx";
import type { Toast } from "../http/flash-cookie.ts";
import { formatVersion, type VersionInfo } from "../meta/version.ts";
import { AvatarMenu, ConsentDialog, Toaster, WorkspaceSwitcher } from "./islands.ts";

export type LayoutProps = {
  title: string;
  viewer: AvatarMenuProps | null;
  /** The signed-in viewer's workspaces, the current one first in the switcher's button. */
  workspaces: WorkspaceSwitcherProps | null;
  version: VersionInfo;
  /** The copyright year, from the services' clock. */
  year: number;
  stylesheet: string;
  /** The island script, only on pages that have islands. */
  script: string | null;
  toaster: { initial: Toast | null } | null;
  mainHtml: string;
  /** Signed in without consent to the terms and privacy policy yet. */
  needsConsent: boolean;
  /** Google sign-in is configured: the top bar's button says "Access" (else it names the one-time link). */
  googleSignIn: boolean;
};

const navLink = "rounded px-2 py-1 text-sm text-gray-700 hover:text-gray-900";
const NAV_LINKS = [
  { href: "/about", label: "About" },
  { href: "/pricing", label: "Pricing" },
  { href: "/contact", label: "Contact" },
];

// One row at any width: the brand, the navigation, and the Access button or the avatar menu. Below `sm` the
// navigation folds into a <details> disclosure, which opens by click, Enter or Space with no script at all.
function TopBar({
  viewer,
  workspaces,
  googleSignIn,
}: {
  viewer: AvatarMenuProps | null;
  workspaces: WorkspaceSwitcherProps | null;
  googleSignIn: boolean;
}) {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3">
        <nav aria-label="Main" className="flex min-w-0 items-center gap-2">
          <a href="/" className="mr-2 text-lg font-bold text-indigo-700">
            LinkPrev
          </a>
          <div className="hidden items-center gap-2 sm:flex">
            {NAV_LINKS.map((link) => (
              <a key={link.href} href={link.href} className={navLink}>
                {link.label}
              </a>
            ))}
          </div>
          <details className="relative sm:hidden">
            <summary className="flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 text-sm text-gray-700 hover:text-gray-900 [&::-webkit-details-marker]:hidden">
              <svg
                aria-hidden="true"
                viewBox="0 0 16 16"
                width="16"
                height="16"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.5"
                strokeLinecap="round"
              >
                <path d="M2 4h12M2 8h12M2 12h12" />
              </svg>
              Menu
            </summary>
            <div className="absolute left-0 z-40 mt-2 flex w-44 flex-col rounded-md border border-gray-200 bg-white p-2 shadow-lg">
              {NAV_LINKS.map((link) => (
                <a
                  key={link.href}
                  href={link.href}
                  className="rounded px-2 py-1.5 text-sm text-gray-700 hover:bg-gray-100 hover:text-gray-900"
                >
                  {link.label}
                </a>
              ))}
            </div>
          </details>
        </nav>
        {viewer ? (
          <div className="flex shrink-0 items-center gap-2">
            {workspaces && <WorkspaceSwitcher {...workspaces} />}
            <AvatarMenu {...viewer} />
          </div>
        ) : (
          <a
            href="/api/auth/google"
            className="shrink-0 rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
          >
            {googleSignIn ? "Access" : "Sign in"}
          </a>
        )}
      </div>
    </header>
  );
}

function Footer({ version, year }: { version: VersionInfo; year: number }) {
  return (
    <footer className="border-t border-gray-200 bg-gray-50 text-sm text-gray-600">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-6">
        <p>Create custom link previews for social media sharing, no code required.</p>
        {/* A grid of four on phones: a wrapping row left a single word on a line of its own. */}
        <nav aria-label="Footer" className="grid grid-cols-4 gap-x-4 gap-y-2 sm:flex sm:flex-wrap">
          <a href="/#features" className="hover:text-gray-900">
            Features
          </a>
          <a href="/#pricing" className="hover:text-gray-900">
            Pricing
          </a>
          <a href="/about" className="hover:text-gray-900">
            About
          </a>
          <a href="/contact" className="hover:text-gray-900">
            Contact
          </a>
          <a href="/privacy" className="hover:text-gray-900">
            Privacy
          </a>
          <a href="/terms" className="hover:text-gray-900">
            Terms
          </a>
          <a href="/docs/api" className="hover:text-gray-900">
            API
          </a>
        </nav>
        <p>
          {`© ${year} LinkPrev · `}
          <span data-testid="version">{formatVersion(version)}</span>
        </p>
      </div>
    </footer>
  );
}

export function Layout({
  title,
  viewer,
  workspaces,
  version,
  year,
  stylesheet,
  script,
  toaster,
  mainHtml,
  needsConsent,
  googleSignIn,
}: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · LinkPrev`}</title>
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href={stylesheet} />
        {script && <script type="module" src={script} />}
      </head>
      <body className="flex min-h-screen flex-col bg-white text-gray-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <TopBar viewer={viewer} workspaces={workspaces} googleSignIn={googleSignIn} />
        <main
          id="main"
          className="mx-auto w-full max-w-6xl flex-1 px-4 py-8"
          dangerouslySetInnerHTML={{ __html: mainHtml }}
        />
        <Footer version={version} year={year} />
        {toaster && <Toaster initial={toaster.initial} />}
        {needsConsent && <ConsentDialog />}
      </body>
    </html>
  );
}
