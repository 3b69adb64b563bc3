// Link slugs: generated ones are short and unambiguous; custom ones must not shadow our own routes.

// No 0/o, 1/l/i: people retype short URLs from screens and print.
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const GENERATED_SLUG_LENGTH = 7;

export function generateSlug(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(GENERATED_SLUG_LENGTH));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

const RESERVED = new Set([
  "admin",
  "api",
  "go",
  "login",
  "logout",
  "signin",
  "signup",
  "auth",
  "pricing",
  "about",
  "contact",
  "privacy",
  "terms",
  "uploads",
  "assets",
  "static",
  "new",
  "edit",
  "delete",
  "dashboard",
  "settings",
  "payment-success",
  "healthz",
  "health",
  "favicon",
  "robots",
  "sitemap",
  "www",
  "linkprev",
  "support",
  "help",
]);

export const isReservedSlug = (slug: string) => RESERVED.has(slug.toLowerCase());
