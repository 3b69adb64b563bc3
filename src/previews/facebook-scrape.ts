// Asks Facebook to scrape a short URL again after its card changed (Graph API `POST /?id={url}&scrape=true`,
// https://developers.facebook.com/docs/sharing/webmasters/getting-started/change-link), so that new shares show
// the new card at once instead of after Facebook's cache expires. Runs after the save, never in its way.
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";

/** What Facebook answered to the last re-scrape asked for: shown in the platforms panel. */
export type ScrapeOutcome = { at: Date; ok: boolean; message: string };

/** Pinned, as Graph API calls should be; move it on when Facebook retires it. */
const GRAPH_VERSION = "v21.0";
/** Facebook fetches the page while we wait: a few seconds is usual. Under the 10 s a stopping app worker gets. */
const SCRAPE_TIMEOUT_MS = 8_000;
/** Messages are stored on the link: long ones are cut. */
const MESSAGE_MAX = 500;

type GraphError = { error?: { message?: unknown; type?: unknown; code?: unknown } };
type GraphObject = { title?: unknown; updated_time?: unknown };

export class FacebookRescraper {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly settings: NonNullable<Config["facebook"]>,
    private readonly deps: { clock: Clock; log: Logger },
    private readonly timeoutMs = SCRAPE_TIMEOUT_MS,
  ) {}

  /** Asks for a re-scrape of `shortUrl` in the background; `store` records the outcome (it never throws here). */
  request(shortUrl: string, store: (outcome: ScrapeOutcome) => Promise<void>): void {
    const job = this.scrape(shortUrl)
      .then(store)
      .catch((error) => this.deps.log.error("storing a Facebook re-scrape outcome failed", error))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once every re-scrape asked for so far has been answered and stored (graceful stop, tests). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async scrape(shortUrl: string): Promise<ScrapeOutcome> {
    const at = new Date(this.deps.clock.now());
    const { appId, appSecret, graphUrl } = this.settings;
    const query = new URLSearchParams({ id: shortUrl, scrape: "true", access_token: `${appId}|${appSecret}` });
    let ok: boolean;
    let message: string;
    try {
      const response = await fetch(`${graphUrl}/${GRAPH_VERSION}/?${query}`, {
        method: "POST",
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body = (await response.json().catch(() => null)) as (GraphError & GraphObject) | null;
      ok = response.ok && body !== null && body.error === undefined;
      message = ok
        ? `Facebook scraped the card again${typeof body!.title === "string" ? `: “${body!.title}”` : ""}`
        : typeof body?.error?.message === "string"
          ? body.error.message
          : `Facebook answered HTTP ${response.status}`;
    } catch (error) {
      ok = false;
      // Our own words: a fetch error may quote the request URL, which holds the app secret.
      message =
        (error as Error)?.name === "TimeoutError"
          ? `Facebook did not answer within ${this.timeoutMs / 1000} s`
          : "Could not reach Facebook";
    }
    // Belt and braces: the secret is never stored or shown, whatever Facebook echoes.
    return { at, ok, message: message.replaceAll(appSecret, "…").slice(0, MESSAGE_MAX) };
  }
}
