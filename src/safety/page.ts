// The plain pages answered on the request thread (no React, no script): the inspect and disabled-link pages here,
// the password form (src/go/password.ts). Their frame carries the product's stylesheet, so they look like the
// rest of LinkPrev; their content is plain HTML that the `plain-page` rules of src/pages/styles.css dress.
import { stylesheet } from "../../build/assets.gen.ts";

export const pageHeaders = (csp: string) => ({
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "X-Content-Type-Options": "nosniff",
  // 'self': the stylesheet, served from /assets on every host, custom domains too.
  "Content-Security-Policy": `default-src 'none'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'${csp}`,
  "Referrer-Policy": "no-referrer",
});

export const page = (head: string, body: string) =>
  [
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="robots" content="noindex">`,
    `<link rel="stylesheet" href="${stylesheet}">\n${head}\n</head>`,
    `<body class="min-h-screen bg-gray-50 text-gray-900 antialiased">`,
    `<header class="border-b border-gray-200 bg-white"><p class="mx-auto max-w-2xl px-4 py-3 text-lg font-bold text-indigo-700">LinkPrev</p></header>`,
    `<main class="plain-page mx-auto max-w-2xl px-4 py-8">\n${body}\n</main>\n</body>\n</html>`,
  ].join("\n");
