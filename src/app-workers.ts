// Pages, the API, webhooks and sign-in run in a small pool of Worker threads, each with the Elysia app and its
// own database connections, so that a dashboard render or a burst of API calls never holds the request thread
// that answers /go (docs/decisions/0006). Requests and responses cross as plain messages, bodies by transfer.
// The request thread keeps what must be shared by every worker: the link cache it invalidates when a worker
// changes a link (before that worker's answer is sent, so the next /go is exact) and the rate-limit counts.
import type { Config } from "./config.ts";
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

export class AppWorkerPool {
  private nextId = 1;
  private closing = false;

  private constructor(private readonly members: Member[]) {}

  static async start(size: number, config: Config, hooks: PoolHooks): Promise<AppWorkerPool> {
    const members = await Promise.all(Array.from({ length: size }, () => startMember(config, hooks)));
    return new AppWorkerPool(members);
  }

  /** Hands the request to the least busy worker; its answer, or a 503 when the worker failed. */
  async handle(request: Request, clientAddress: string): Promise<Response> {
    if (this.closing) return unavailable();
    let member = this.members[0]!;
    for (const candidate of this.members) if (candidate.pending.size < member.pending.size) member = candidate;
    const id = this.nextId++;
    const headers = [...request.headers].filter(([name]) => name !== CLIENT_ADDRESS_HEADER);
    headers.push([CLIENT_ADDRESS_HEADER, clientAddress]);
    const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
    const message: ToWorker = { type: "request", request: { id, method: request.method, url: request.url, headers, body } };
    return new Promise<Response>((resolve) => {
      member.pending.set(id, resolve);
      member.worker.postMessage(message, body ? [body] : []);
    });
  }

  /** Lets every worker finish what it has, then closes their database connections. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.members.map(
        (member) =>
          new Promise<void>((resolve) => {
            member.worker.addEventListener("message", (event: MessageEvent<FromWorker>) => event.data.type === "closed" && resolve());
            member.worker.postMessage({ type: "close" } satisfies ToWorker);
          }),
      ),
    );
    for (const member of this.members) member.worker.terminate();
  }
}

const unavailable = () => Response.json({ message: "The server is restarting. Please try again." }, { status: 503 });

function startMember(config: Config, hooks: PoolHooks): Promise<Member> {
  const worker = new Worker(workerEntry("app.worker.ts"));
  const member: Member = { worker, pending: new Map() };
  return new Promise<Member>((resolve, reject) => {
    worker.onerror = (event) => {
      reject(new Error(`app worker failed: ${event.message}`));
      // Whatever it was answering is lost: say so rather than leave the clients waiting.
      for (const answer of member.pending.values()) answer(unavailable());
      member.pending.clear();
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      switch (message.type) {
        case "ready":
          resolve(member);
          break;
        case "failed":
          reject(new Error(message.error));
          break;
        case "link-changed":
          hooks.linkChanged(message.key);
          break;
        case "upload-changed":
          hooks.uploadChanged(message.name, message.bytes ? new Uint8Array(message.bytes) : null);
          break;
        case "hit":
          void hooks.countHit(message.key, message.windowStart).then((count) => worker.postMessage({ type: "hit-count", id: message.id, count } satisfies ToWorker));
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
    worker.postMessage({ type: "start", config } satisfies ToWorker);
  });
}
