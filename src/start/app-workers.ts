// Pages, the API, webhooks and sign-in run in a small pool of Worker threads, each with the Elysia app and its
// own database connections, so that a dashboard render or a burst of API calls never holds the request thread
// that answers /go (docs/decisions/0006). Requests and responses cross as typed calls (src/threads/rpc.ts), bodies by
// transfer. The request thread keeps what must be shared by every worker: the link cache it invalidates when a
// worker changes a link (before that worker's answer is sent, so the next /go is exact) and the rate-limit counts.
import type { MovingClock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";
import type { Change } from "../db/change.ts";
import { UNMATCHED_ROUTE, type Facts, type Origin } from "../observability/request-facts.ts";
import { connectWorker, started, type WorkerClient } from "../threads/rpc.ts";
import { workerEntry } from "../workers.ts";
import type { Lease } from "../links/images/pixel-budget.ts";
import type { ImageWorkEvent } from "../links/images/work-counts.ts";

/** A request as it crosses to a worker, with what the request thread found about it. */
export type WorkerRequest = Origin & {
  method: string;
  url: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
};
/** The answer, with the route pattern the app matched and who asked (for the request thread's log and metrics). */
export type WorkerResponse = Facts & { status: number; headers: [string, string][]; body: ArrayBuffer | null };

export type AppWorkerProtocol = {
  worker: {
    /**
     * Opens the worker's database connections and builds its app: its routes ("METHOD /path"), or why it could not.
     * `drivenAt`: a test clock's time, which the worker's clock then reads (null: the system clock).
     */
    start: { payload: { config: Config; drivenAt: number | null }; reply: string[] };
    /** The test clock was moved to `now` (sent before any request that follows the move). */
    moveClock: { payload: { now: number }; reply: void };
    request: { payload: WorkerRequest; reply: WorkerResponse };
    /** Finishes what the worker holds and closes its connections. */
    close: { payload: void; reply: void };
  };
  parent: {
    /** One more request by `key` in the window starting at `windowStart`; the new count. */
    countHit: { payload: { key: string; windowStart: number; windowMs: number }; reply: number };
    /** A share of the process's image budget (src/links/images/pixel-budget.ts): its lease number, or null when the queue is full. */
    acquirePixels: { payload: { pixels: number }; reply: number | null };
  };
  notices: {
    /** The worker committed a change (to a link, a user slug or a custom domain). */
    changed: { change: Change };
    /** The worker stored (bytes) or removed (null) an upload, before answering. */
    "upload-changed": { name: string; bytes: ArrayBuffer | null };
    /** A target check or a threat hit in the worker, for /metrics (src/safety/deps.ts). */
    "safety-counted": { check: boolean; hit: string | null; hits: number };
    /** The job holding this lease is done. */
    "pixels-released": { lease: number };
    /** An image job the limits refused or ended in the worker, for /metrics and the log (src/links/images/work-counts.ts). */
    "image-work-counted": { event: ImageWorkEvent };
  };
};

export type PoolHooks = {
  changed: (change: Change) => void;
  uploadChanged: (name: string, bytes: Uint8Array<ArrayBuffer> | null) => void;
  countHit: (key: string, windowStart: number, windowMs: number) => Promise<number>;
  /** A share of the image budget once it is free; null when the queue is full. */
  acquirePixels: (pixels: number) => Promise<Lease | null>;
  safetyCounted: (event: { check: boolean; hit: string | null; hits: number }) => void;
  imageWorkCounted: (event: ImageWorkEvent) => void;
  /** Where a worker that stopped, and the start of its replacement, are told. */
  log: Logger;
  /** A test's clock, whose time and moves each worker is sent; null in production (the workers read the system clock). */
  drivenBy: MovingClock | null;
};

/** `unfollow`: stops sending it the test clock's moves. */
type Member = { worker: Worker; client: WorkerClient<AppWorkerProtocol>; unfollow: () => void };

/** How long a stopping worker may take to finish what it holds before it is ended. */
const CLOSE_GRACE_MS = 10_000;

export class AppWorkerPool {
  private closing = false;
  private readonly members: Member[] = [];
  /** The app's routes, as the workers built it ("METHOD /path"). */
  routes: string[] = [];

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
  async handle(request: Request, origin: Origin): Promise<Facts & { response: Response }> {
    if (this.closing || this.members.length === 0) return unavailable();
    let member = this.members[0]!;
    for (const candidate of this.members) if (candidate.client.pending < member.client.pending) member = candidate;
    const body = request.method === "GET" || request.method === "HEAD" ? null : await request.arrayBuffer();
    const payload: WorkerRequest = {
      ...origin,
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body,
    };
    try {
      const {
        status,
        headers,
        body: answer,
        route,
        userId,
      } = await member.client.call("request", payload, { transfer: body ? [body] : [] });
      return { response: new Response(answer, { status, headers }), route, userId };
    } catch {
      // The worker stopped with the request in hand: say so rather than leave the client waiting.
      return unavailable();
    }
  }

  /** Requests the workers are answering now (the metrics read it when scraped). */
  inFlight(): number {
    let count = 0;
    for (const member of this.members) count += member.client.pending;
    return count;
  }

  /** Lets every worker finish what it has (for at most CLOSE_GRACE_MS), then closes their database connections. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.members.map(async (member) => {
        member.unfollow();
        await member.client.call("close", undefined, { timeoutMs: CLOSE_GRACE_MS }).catch(() => undefined);
        member.worker.terminate();
        member.client.fail(new Error("the app worker was stopped"));
      }),
    );
  }

  private async startMember(): Promise<Member> {
    const worker = new Worker(workerEntry("app.worker.ts"));
    // The image budget's shares this worker holds: a worker that stops gives its back.
    const leases = new Map<number, Lease>();
    let nextLease = 1;
    let gone = false;
    const acquirePixels = async ({ pixels }: { pixels: number }) => {
      const lease = await this.hooks.acquirePixels(pixels);
      if (!lease || gone) return (lease?.release(), null);
      leases.set(nextLease, lease);
      return nextLease++;
    };
    const client = connectWorker<AppWorkerProtocol>(
      worker,
      { countHit: ({ key, windowStart, windowMs }) => this.hooks.countHit(key, windowStart, windowMs), acquirePixels },
      {
        changed: ({ change }) => this.hooks.changed(change),
        "upload-changed": ({ name, bytes }) => this.hooks.uploadChanged(name, bytes ? new Uint8Array(bytes) : null),
        "safety-counted": (event) => this.hooks.safetyCounted(event),
        "image-work-counted": ({ event }) => this.hooks.imageWorkCounted(event),
        "pixels-released": ({ lease }) => {
          leases.get(lease)?.release();
          leases.delete(lease);
        },
      },
      "app worker",
    );
    // The test clock's time goes with the start, and every move after it, in order, so the worker misses none.
    const { drivenBy } = this.hooks;
    const opening = client.call("start", { config: this.config, drivenAt: drivenBy?.now() ?? null });
    const unfollow =
      drivenBy?.onMove((now) => void client.call("moveClock", { now }).catch(() => undefined)) ?? (() => {});
    const member: Member = { worker, client, unfollow };
    try {
      this.routes = await started(worker, opening, "app worker");
    } catch (error) {
      unfollow();
      throw error;
    }
    const lost = (reason: string) => {
      gone = true;
      unfollow();
      for (const lease of leases.values()) lease.release();
      leases.clear();
      // What it was answering has been answered 503 by its client; take its place.
      const index = this.members.indexOf(member);
      if (index < 0) return;
      this.members.splice(index, 1);
      worker.terminate();
      if (this.closing) return;
      this.hooks.log.warn(`an app worker stopped (${reason}); starting another`);
      this.startMember().then(
        (replacement) => (this.closing ? replacement.worker.terminate() : this.members.push(replacement)),
        (error) => this.hooks.log.error("an app worker could not be started", error),
      );
    };
    worker.addEventListener("error", (event) => lost(event.message));
    worker.addEventListener("close", () => lost("it exited"));
    return member;
  }
}

const unavailable = (): Facts & { response: Response } => ({
  response: Response.json({ message: "The server is restarting. Please try again." }, { status: 503 }),
  route: UNMATCHED_ROUTE,
  userId: undefined,
});
