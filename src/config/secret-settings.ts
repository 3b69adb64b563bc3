// Settings that hold secrets: an error about one names the setting but never prints its value, not even an
// invalid one (it may be the right secret pasted into the wrong place).

const SECRET_SETTINGS = new Set([
  "METRICS_TOKEN",
  "DATABASE_URL",
  "GOOGLE_CLIENT_SECRET",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "S3_SECRET_ACCESS_KEY",
  "FACEBOOK_APP_SECRET",
  "SMTP_URL",
]);

/** How a setting's value appears in an error message. */
export function shownValue(name: string, value: string | undefined): string {
  return SECRET_SETTINGS.has(name) ? "(not shown: it holds a secret)" : JSON.stringify(value ?? "");
}
