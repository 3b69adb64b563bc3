// GET/HEAD /go/:userSlug/:linkSlug and /go/:userSlug/:linkSlug/:version — the hot path. Served as raw Bun routes:
// no session, no body parsing, no React. One cached lookup, one memoised classification, then a 302 or the
// preview page, and one push onto the view buffer (go-answer.ts). A version (docs/decisions/0007) is the same link
// under a new address, for platforms that cache cards by URL: counted into the link, its og:url naming that address.
import type { Server } from "bun";
import type { GoLink } from "../link-cache/held-link.ts";
import { RETIRED, type GoAnswer } from "../link-cache/link-cache.ts";
import { PLAIN, VERSION_PATTERN } from "./address-version.ts";
import { createGoAnswer, type GoAnswerDeps } from "./go-answer.ts";

type GoDeps = GoAnswerDeps & {
  /** Custom domains by host: /go is never served on one (src/go/custom-host.ts serves their links). */
  hosts: { readonly size: number; lookup(host: string): unknown };
  /** The inspect page of an address with `+` appended (src/safety/inspect.ts): never counted. */
  inspect: (request: Request, link: GoLink | null, address: string) => Promise<Response>;
};

export function createGoHandler(deps: GoDeps) {
  const { answer, submit: submitLink, notFound, unavailable } = createGoAnswer(deps);
  type GoRequest = Request & { params: { userSlug: string; linkSlug: string } };
  type VersionedGoRequest = Request & { params: { userSlug: string; linkSlug: string; version: string } };

  /** The inspect page of `link` at `address` (its short address, version included, without the `+`). */
  const inspectLink = (request: Request, link: GoAnswer, version: string, address: string): Promise<Response> =>
    deps.inspect(request, link && link !== RETIRED && Number(version) <= link.version ? link : null, address);
  /** `/go/{user}/{link}+` (or `…/{version}+`): the inspect page of the link there. */
  const inspect = async (request: Request, userSlug: string, linkSlug: string, version: string): Promise<Response> =>
    inspectLink(
      request,
      await deps.cache.get(userSlug, linkSlug),
      version,
      `${deps.publicUrl}/go/${userSlug}/${linkSlug}${version === PLAIN ? "" : `/${version}`}`,
    );
  // A custom domain serves its own links only, at /{slug}: never anyone's /go/… address under its name.
  const onCustomHost = (request: Request) =>
    deps.hosts.size !== 0 && deps.hosts.lookup(request.headers.get("host") ?? "") !== undefined;
  // `slug@domainId` is how a custom host looks up an address moved off it (address-key.ts movedSlug), a key the
  // cache shares: /go, which serves no custom domain's addresses, never resolves it, cached or not (no slug has an @).
  const isMovedKey = (linkSlug: string) => linkSlug.includes("@");
  /** A cached link is answered at once; only a miss waits for the database. */
  const serve = (
    request: GoRequest,
    server: Server<unknown>,
    isGet: boolean,
    version: string,
  ): Response | Promise<Response> => {
    const { userSlug, linkSlug } = request.params;
    if (onCustomHost(request) || isMovedKey(linkSlug)) return notFound();
    if (linkSlug.endsWith("+")) return inspect(request, userSlug, linkSlug.slice(0, -1), PLAIN);
    const cached = deps.cache.peek(userSlug, linkSlug);
    if (cached !== undefined) return answer(request, server, isGet, cached, version);
    return deps.cache
      .load(userSlug, linkSlug)
      .then((link) => answer(request, server, isGet, link, version), unavailable);
  };
  /** Anything but a plain positive number is unknown without a lookup. */
  const serveVersion = (
    request: VersionedGoRequest,
    server: Server<unknown>,
    isGet: boolean,
  ): Response | Promise<Response> => {
    const version = request.params.version;
    if (onCustomHost(request)) return notFound();
    if (version.endsWith("+") && VERSION_PATTERN.test(version.slice(0, -1)))
      return inspect(request, request.params.userSlug, request.params.linkSlug, version.slice(0, -1));
    return VERSION_PATTERN.test(version) ? serve(request, server, isGet, version) : notFound();
  };
  const submit = async (request: GoRequest, server: Server<unknown>, version: string): Promise<Response> => {
    const { userSlug, linkSlug } = request.params;
    if (onCustomHost(request) || isMovedKey(linkSlug) || (version !== PLAIN && !VERSION_PATTERN.test(version)))
      return notFound();
    // The address asked for, not the link's own: at an earlier address (a rename) the cookie must come back there.
    const askedPath = `/go/${encodeURIComponent(userSlug)}/${encodeURIComponent(linkSlug)}`;
    return submitLink(request, server, await deps.cache.get(userSlug, linkSlug), version, askedPath);
  };
  return {
    /** For src/go/custom-host.ts: a custom domain's link, counted and answered as /go answers, its inspect page, its password form's answer. */
    answer,
    inspect: inspectLink,
    submit: submitLink,
    notFound,
    plain: {
      GET: (request: GoRequest, server: Server<unknown>) => serve(request, server, true, PLAIN),
      HEAD: (request: GoRequest, server: Server<unknown>) => serve(request, server, false, PLAIN),
      POST: (request: GoRequest, server: Server<unknown>) => submit(request, server, PLAIN),
    },
    versioned: {
      GET: (request: VersionedGoRequest, server: Server<unknown>) => serveVersion(request, server, true),
      HEAD: (request: VersionedGoRequest, server: Server<unknown>) => serveVersion(request, server, false),
      POST: (request: VersionedGoRequest, server: Server<unknown>) => submit(request, server, request.params.version),
    },
  };
}
