// Headers every page and API answer carries: a Content-Security-Policy that allows only our own scripts
// (the island bundles) and styles, no framing, no MIME sniffing, a careful referrer, and HSTS behind https.
import type { Config } from "../config/config.ts";

export function securityHeaders(config: Pick<Config, "secureCookies">): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      // The toaster's swipe moves the toast with a style attribute.
      "style-src-attr 'unsafe-inline'",
      // Profile pictures and external preview images are https; an upload's preview is a blob: URL.
      "img-src 'self' https: data: blob:",
      "connect-src 'self'",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; "),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
  };
  if (config.secureCookies) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Adds the headers a response does not set itself (the crawler page and images keep their own). */
export function withSecurityHeaders(response: Response, headers: Record<string, string>): Response {
  let target = response;
  try {
    for (const [name, value] of Object.entries(headers)) if (!target.headers.has(name)) target.headers.set(name, value);
  } catch {
    // Immutable headers (Response.redirect): copy into a new response.
    target = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    for (const [name, value] of Object.entries(headers)) if (!target.headers.has(name)) target.headers.set(name, value);
  }
  return target;
}
