// Google Web Risk's Lookup API (uris.search), for instances that set WEB_RISK_API_KEY: Safe Browsing's free API
// forbids commercial use. Google requires warnings based on it to say "suspected" and credit Google.
const THREAT_TYPES = ["MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE"];
const WORDS: Record<string, string> = {
  MALWARE: "suspected malware",
  SOCIAL_ENGINEERING: "suspected phishing (social engineering)",
  UNWANTED_SOFTWARE: "suspected unwanted software",
};

export type WebRisk = { lookup(url: string): Promise<string | null> };

/** The warning for a hit: Google's qualifying language and attribution. */
export const webRiskWarning = (threatTypes: string[]) =>
  `Google Web Risk lists it as ${threatTypes.map((type) => WORDS[type] ?? type.toLowerCase()).join(" and ")}. Advisory provided by Google (https://cloud.google.com/web-risk)`;

/** A lookup that fails (timeout, quota) lets the link through: the feeds still apply, and a later refresh may disable it. */
export function webRiskClient(settings: { key: string; url: string }, timeoutMs = 3000): WebRisk {
  return {
    async lookup(url) {
      const query = new URLSearchParams(THREAT_TYPES.map((type) => ["threatTypes", type]));
      query.set("uri", url);
      query.set("key", settings.key);
      try {
        const response = await fetch(`${settings.url}/v1/uris:search?${query}`, {
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) return null;
        const body = (await response.json()) as { threat?: { threatTypes?: string[] } };
        const types = body.threat?.threatTypes ?? [];
        return types.length > 0 ? webRiskWarning(types) : null;
      } catch {
        return null;
      }
    },
  };
}
