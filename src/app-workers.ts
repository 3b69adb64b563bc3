// Pages, the API, webhooks and sign-in run in a small pool of Worker threads, each with the Elysia app and its
// own database connections, so that a dashboard render or a burst of API calls never holds the request thread
// that answers /go (docs/decisions/0006). Requests and responses cross as plain messages, bodies by transfer.
// The request thread keeps what must be shared by every worker: the link cache it invalidates when a worker
// changes a link (before that worker's answer is sent, so the next /go is exact) and the rate-limit counts.
import type { Config } from "./config.ts";
import { REQUEST_ID_HEADER } from "./observability/request-facts.ts";
import { workerEntry } from "./workers.ts";

/** The client address the request thread found, for the worker (it has no socket to ask). */
export const CLIENT_ADDRESS_HEADER = "x-linkprev-client-address";

export type WorkerRequest = { id: number; method: string; url: string; headers: [string, string][]; body: ArrayBuffer | null };
export type WorkerResponse = { id: number; status: number; headers: [string, string][]; body: ArrayBuffer | null };

/** Messages from a worker to the request thread. */
export type FromWorker =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { type: "response"; response: WorkerResponse }
  | { type: "link-changed"; key: string }
  | { type: "upload-changed"; name: string; bytes: ArrayBuffer | null }
  | { type: "hit"; id: number; key: string; windowStart: number }
  | { type: "closed" };

/** Messages from the request thread to a worker. */
export type ToWorker =
  | { type: "start"; config: Config }
  | { type: "request"; request: WorkerRequest }
  | { type: "hit-count"; id: number; count: number }
  | { type: "hit-count"; id: number; error: string }
  | { type: "close" };

export type PoolHooks = {
  /** A worker committed a change to the link at this short address. */
  linkChanged: (key: string) => void;
  /** A worker stored (bytes) or removed (null) an upload, before answering. */
  uploadChanged: (name: string, bytes: Uint8Array<ArrayBuffer> | null) => void;
  /** One more request by `key` in the window starting at `windowStart`; the new count. */
  countHit: (key: string, windowStart: number) => Promise<number>;
};

type Member = { worker: Worker; pending: Map<number, (response: Response) => void> };

/** How long a stopping worker may take to finish what it holds before it is ended. */
const CLOSE_GRACE_MS = 10_000;

/** The request for a worker (or this thread's app): the client address and request id set by us, never by the client. */
export function withClientAddress(request: Request, clientAddress: string, requestId: string): Request {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, clientAddress);
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Request(request, { headers });
}

/** The address withClientAddress set. */
export const clientAddressOf = (request: Request) => request.headers.get(CLIENT_ADDRESS_HEADER) ?? "";

export class AppWorkerPool {
  private nextId = 1;
  private closing = false;
  private readonly members: Member[] = [];

  private constructor(
    private readonly config: Config,
    private readonly hooks: PoolHooks,
  ) {}

  static async start(size: number, config: Config, hooks: PoolHooks): Promise<AppWorkerPool> {
    const pool = new AppWorkerPool(config, hooks);
    pool.members.push(...(await Promise.all(Array.from({ length: size }, () => pool.startMember()))));
    return pool;
  }

  /** Hands the request to the least busy worker; its answer, or a 503 when no worker can take it. */
  async handle(request: Request, clientAddress: string, requestId: string): Promise<Response> {
    if (this.closing || this.members.length === 0) return unavailable();
    let member = this.members[0]!;
    for (const candidate of this.members) if (candidate.pending.size < member.pending.size) member = candidate;
    const id = this.nextId++;
    const headers = [...request.headers].filter(([name]) => name !== CLIENT_ADDRESS_HEADER && name !== REQUEST_ID_HEADER);
    headers.push([CLIENT_ADDRESS_HEADER, clientAddress], [REQUEST_ID_HEADER, requestId]);
    const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
    const message: ToWorker = { type: "request", request: { id, method: request.method, url: request.url, headers, body } };
    return new Promise<Response>((resolve) => {
      member.pending.set(id, resolve);
      member.worker.postMessage(message, body ? [body] : []);
    });
  }

  /** Requests the workers are answering now (the metrics read it when scraped). */
  inFlight(): number {
    let count = 0;
    for (const member of this.members) count += member.pending.size;
    return count;
  }

  /** Lets every worker finish what it has (for at most CLOSE_GRACE_MS), then closes their database connections. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.members.map(async (member) => {
        const closed = new Promise<void>((resolve) => {
          member.worker.addEventListener("message", (event: MessageEvent<FromWorker>) => event.data.type === "closed" && resolve());
          member.worker.addEventListener("close", () => resolve());
          member.worker.postMessage({ type: "close" } satisfies ToWorker);
        });
        await Promise.race([closed, Bun.sleep(CLOSE_GRACE_MS)]);
        member.worker.terminate();
        answerAll(member, unavailable);
      }),
    );
  }

  private startMember(): Promise<Member> {
    const worker = new Worker(workerEntry("app.worker.ts"));
    const member: Member = { worker, pending: new Map() };
    return new Promise<Member>((resolve, reject) => {
      let started = false;
      const lost = (reason: string) => {
        if (!started) return reject(new Error(`app worker failed to start: ${reason}`));
        // Whatever it was answering is lost: say so rather than leave the clients waiting, and take its place.
        const index = this.members.indexOf(member);
        if (index < 0) return;
        this.members.splice(index, 1);
        answerAll(member, unavailable);
        worker.terminate();
        if (this.closing) return;
        console.error(`an app worker stopped (${reason}); starting another`);
        this.startMember().then(
          (replacement) => (this.closing ? replacement.worker.terminate() : this.members.push(replacement)),
          (error) => console.error(String(error)),
        );
      };
      worker.addEventListener("error", (event) => lost(event.message));
      worker.addEventListener("close", () => lost("it exited"));
      worker.onmessage = (event: MessageEvent<FromWorker>) => {
        const message = event.data;
        switch (message.type) {
          case "ready":
            started = true;
            resolve(member);
            break;
          case "failed":
            reject(new Error(message.error));
            break;
          case "link-changed":
            this.hooks.linkChanged(message.key);
            break;
          case "upload-changed":
            this.hooks.uploadChanged(message.name, message.bytes ? new Uint8Array(message.bytes) : null);
            break;
          case "hit":
            this.hooks.countHit(message.key, message.windowStart).then(
              (count) => worker.postMessage({ type: "hit-count", id: message.id, count } satisfies ToWorker),
              (error) => worker.postMessage({ type: "hit-count", id: message.id, error: String(error) } satisfies ToWorker),
            );
            break;
          case "response": {
            const { id, status, headers, body } = message.response;
            const answer = member.pending.get(id);
            member.pending.delete(id);
            answer?.(new Response(body, { status, headers }));
            break;
          }
        }
      };
      worker.postMessage({ type: "start", config: this.config } satisfies ToWorker);
    });
  }
}

const unavailable = () => Response.json({ message: "The server is restarting. Please try again." }, { status: 503 });

function answerAll(member: Member, response: () => Response) {
  for (const answer of member.pending.values()) answer(response());
  member.pending.clear();
}
