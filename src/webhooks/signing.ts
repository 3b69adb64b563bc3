// The Standard Webhooks signature (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`,
// keyed by the bytes the `whsec_` secret's base64 names. Tests verify it with the reference `standardwebhooks` library.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new endpoint secret: 24 random bytes, as receivers' libraries expect it. */
export const newSecret = () => PREFIX + randomBytes(24).toString("base64");

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), "base64");
  return "v1," + createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
}

/**
 * The headers of one attempt. During the 24 h after a rotation the old secret signs too (both signatures, space
 * separated), so a receiver not yet updated keeps accepting.
 */
export function signedHeaders(
  endpoint: { secret: string; previousSecret: string | null; previousSecretUntil: number | null },
  id: string,
  now: number,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && (endpoint.previousSecretUntil ?? 0) > now) secrets.push(endpoint.previousSecret);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => sign(secret, id, timestamp, body)).join(" "),
  };
}
