// Fetches a page or an image that a user named, without letting the user reach inside our network (SSRF).
// Every hop: http(s) only, judged and pinned to the judged address (src/safe-fetch/pinned-request.ts); redirects
// followed by hand, each hop checked again. One deadline covers the whole fetch. Refusals are 422 AppErrors saying why; the fetched body never appears in one. See decision 0008.
import { AppError } from "../http/errors.ts";
import { parseCidrList } from "./address-policy.ts";
import { mediaType, pageDecoder, readBody } from "./body.ts";
import { judged, pinnedRequest, refused, systemResolver, type HopPolicy, type Resolver } from "./pinned-request.ts";

export { refused, type Resolver };

export type SafeFetchOptions = {
  /** FETCH_ALLOW_PRIVATE's CIDRs: addresses inside may be fetched, on any port. */
  allowPrivate: readonly string[];
  /** For the whole fetch: every hop, its DNS answer, headers and body. */
  deadlineMs: number;
  userAgent: string;
  resolve?: Resolver;
  /** Certificate authorities to trust besides the system's (the tests' own, for an HTTPS server on loopback). */
  ca?: string;
};

/** Honest: names us and where to read about us. */
export const fetcherUserAgent = (publicUrl: string) => `LinkPrevBot/1.0 (+${publicUrl})`;
export const MAX_REDIRECTS = 3;
export const MAX_PAGE_BYTES = 512 * 1024;
const PAGE_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Runs one request of a fetch to `url` when the caller allows it (src/rules/host-pacer.ts: a gap per host). */
export type Paced = <T>(url: string, request: () => Promise<T>) => Promise<T>;
export type FetchedPage = { url: string; html: string };
export type FetchedImage = { url: string; bytes: Uint8Array<ArrayBuffer>; contentType: string };

export class SafeFetcher {
  private readonly policy: HopPolicy;

  constructor(private readonly options: SafeFetchOptions) {
    this.policy = {
      resolve: options.resolve ?? systemResolver,
      allowPrivate: parseCidrList(options.allowPrivate.join(",")),
      userAgent: options.userAgent,
      ca: options.ca,
    };
  }

  /** An HTML page's text up to `</head>` (at most 512 KB); the final URL after redirects. */
  async fetchPage(url: string): Promise<FetchedPage> {
    return this.withDeadline("page", async (signal) => {
      const { response, url: finalUrl } = await this.follow(
        url,
        "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
        signal,
      );
      const type = mediaType(response.headers.get("content-type"));
      if (!PAGE_TYPES.has(type)) {
        await response.body?.cancel();
        throw refused(`The address did not return an HTML page (it sent ${type || "no content type"})`);
      }
      const decoder = pageDecoder(response.headers.get("content-type"));
      let html = "";
      let read = 0;
      await readBody(response, signal, (chunk) => {
        const room = MAX_PAGE_BYTES - read;
        read += chunk.byteLength;
        // Searched from a little before the new text, so a "</head>" split between chunks is still seen.
        const from = Math.max(0, html.length - 8);
        html += decoder.decode(chunk.byteLength > room ? chunk.subarray(0, room) : chunk, { stream: true });
        const end = html.slice(from).search(/<\/head\s*>/i);
        if (end >= 0) html = html.slice(0, from + end);
        return end < 0 && read < MAX_PAGE_BYTES;
      });
      return { url: finalUrl, html };
    });
  }

  /** An image of at most `maxBytes` (any image/* type; the caller checks what it really is). */
  async fetchImage(url: string, maxBytes: number): Promise<FetchedImage> {
    return this.withDeadline("image", async (signal) => {
      const { response, url: finalUrl } = await this.follow(url, "image/*", signal);
      const contentType = mediaType(response.headers.get("content-type"));
      const tooLarge = () => refused(`The image is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      if (!contentType.startsWith("image/")) {
        await response.body?.cancel();
        throw refused(`The address did not return an image (it sent ${contentType || "no content type"})`);
      }
      if (Number(response.headers.get("content-length") ?? 0) > maxBytes) {
        await response.body?.cancel();
        throw tooLarge();
      }
      const chunks: Uint8Array[] = [];
      let read = 0;
      await readBody(response, signal, (chunk) => {
        read += chunk.byteLength;
        chunks.push(chunk);
        return read <= maxBytes;
      });
      if (read > maxBytes) throw tooLarge();
      // Copied into an ArrayBuffer of its own (a Buffer may share Node's pool).
      return { url: finalUrl, bytes: new Uint8Array(Buffer.concat(chunks, read)), contentType };
    });
  }

  /**
   * A link health check (src/rules/health.ts): where the URL ends up and what it answers, any status. HEAD first;
   * a server that refuses HEAD (405, 501) or fails it (5xx) is asked again with GET, whose body is not read. Every
   * request (each hop, the GET) waits for its turn through `paced`, and has the deadline to itself: the waits are ours.
   */
  async probe(url: string, paced: Paced): Promise<{ status: number; url: string }> {
    const head = await this.followAny(url, "HEAD", paced);
    if (head.status !== 405 && head.status !== 501 && head.status < 500) return head;
    return this.followAny(url, "GET", paced);
  }

  /** Like follow, but any final status is an answer; the body is left unread. */
  private async followAny(
    start: string,
    method: "HEAD" | "GET",
    paced: Paced,
  ): Promise<{ status: number; url: string }> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const response = await paced(url, () =>
        this.withDeadline("page", async (signal) => {
          const answer = await pinnedRequest(this.policy, url, "*/*", signal, { method });
          await answer.body?.cancel();
          return answer;
        }),
      );
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null) return { status: response.status, url };
      if (hop >= MAX_REDIRECTS) throw refused(`Too many redirects (more than ${MAX_REDIRECTS})`);
      if (!URL.canParse(location, url)) throw refused("The address redirected to something that is not a URL");
      url = new URL(location, url).href;
    }
  }

  /** A text file of at most `maxBytes` (a threat feed: any content type); longer is a refusal. */
  async fetchText(url: string, maxBytes: number): Promise<string> {
    return this.withDeadline("file", async (signal) => {
      const { response } = await this.follow(url, "text/plain,text/csv,application/json;q=0.9,*/*;q=0.1", signal);
      const decoder = new TextDecoder("utf-8");
      let text = "";
      let read = 0;
      await readBody(response, signal, (chunk) => {
        read += chunk.byteLength;
        text += decoder.decode(chunk, { stream: true });
        return read <= maxBytes;
      });
      if (read > maxBytes) throw refused(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      return text + decoder.decode();
    });
  }

  /** The addresses a URL redirects through (at most MAX_REDIRECTS hops), those reached before any failure. */
  async redirectHops(url: string): Promise<string[]> {
    const hops: string[] = [];
    try {
      await this.withDeadline("page", async (signal) => {
        const { response } = await this.follow(url, "text/html,*/*;q=0.1", signal, (hop) => hops.push(hop));
        await response.body?.cancel();
      });
    } catch {
      // An unreachable hop ends the chain: what was reached is still checked.
    }
    return hops;
  }

  /** Runs `work` under the one deadline; running out of time is a refusal, whichever step it was. */
  private async withDeadline<T>(
    what: "page" | "image" | "file",
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.deadlineMs);
    try {
      return await work(controller.signal);
    } catch (error) {
      if (controller.signal.aborted && !(error instanceof AppError)) {
        throw refused(`The ${what} took longer than ${this.options.deadlineMs / 1000} seconds to arrive`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  /** Follows up to MAX_REDIRECTS redirects by hand, checking every hop; the final response (2xx). */
  private async follow(
    start: string,
    accept: string,
    signal: AbortSignal,
    onHop?: (url: string) => void,
  ): Promise<{ response: Response; url: string }> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const response = await pinnedRequest(this.policy, url, accept, signal);
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw refused(`Too many redirects (more than ${MAX_REDIRECTS})`);
        if (!URL.canParse(location, url)) throw refused("The address redirected to something that is not a URL");
        url = new URL(location, url).href;
        onHop?.(url);
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        await response.body?.cancel();
        throw refused(`The address answered HTTP ${response.status}`);
      }
      return { response, url };
    }
  }

  /**
   * A webhook destination: public, and https, unless every address it has is in FETCH_ALLOW_PRIVATE (intranets,
   * tests), where http is accepted too. A refusal (422) says why.
   */
  async checkDestination(url: string): Promise<void> {
    if (!URL.canParse(url)) throw refused("The URL is not a valid http(s) URL");
    const https = new URL(url).protocol === "https:";
    const { allowed } = await judged(this.policy, url, AbortSignal.timeout(this.options.deadlineMs));
    if (!https && !allowed)
      throw refused("Webhook URLs must use https (http is accepted only for addresses in FETCH_ALLOW_PRIVATE)");
  }

  /** One POST within `timeoutMs`, redirects not followed: the status and the first `excerptBytes` of the answer. */
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
    excerptBytes: number,
  ): Promise<{ status: number; excerpt: string }> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await pinnedRequest(this.policy, url, "*/*", signal, { method: "POST", headers, body });
      const chunks: Uint8Array[] = [];
      let read = 0;
      await readBody(response, signal, (chunk) => {
        chunks.push(chunk);
        return (read += chunk.byteLength) < excerptBytes;
      });
      return {
        status: response.status,
        excerpt: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, excerptBytes)),
      };
    } catch (error) {
      if (signal.aborted && !(error instanceof AppError)) throw refused(`No answer within ${timeoutMs / 1000} seconds`);
      throw error;
    }
  }
}
