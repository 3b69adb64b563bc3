// Random secrets handed to a client (session cookies, API tokens, sign-in links) and the hash we store instead.
import { createHash } from "node:crypto";
import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";

export function generateSecret(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

/** SHA-256 in hex, natively: every signed-in request hashes its cookie or token. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
