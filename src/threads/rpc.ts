// Typed calls between a thread and its Workers, the one place that pairs requests with replies. Each kind of
// Worker declares a WorkerProtocol: the calls it answers, the calls it makes on its parent (if any) and the
// one-way notices it sends. The parent wraps the Worker with `connectWorker`, the Worker serves with
// `serveParent`; both get `call(name, payload, {transfer, timeoutMs})`, a promise of the typed reply. Ids are
// assigned here; a call whose answer does not come within timeoutMs rejects with RpcTimeout; a Worker that
// fails or exits rejects every call it had pending, so no caller waits forever. Buffers listed in `transfer`
// (and in a handler's `transfer(value, list)`) are moved, not copied.

/** Calls one side answers: each name → what the call sends and what it answers. */
export type Protocol = Record<string, { payload: unknown; reply: unknown }>;
/** One-way messages: each name → what it carries. */
export type Notices = Record<string, unknown>;

/** What a kind of Worker speaks. `parent`: what it may call on the thread that started it. */
export type WorkerProtocol = { worker: Protocol; parent: Protocol; notices: Notices };

/** A reply (or payload) with the buffers to move along with it. */
export class Transfer<T> {
  constructor(
    readonly value: T,
    readonly list: Transferable[],
  ) {}
}
export const transfer = <T>(value: T, list: Transferable[]): Transfer<T> => new Transfer(value, list);

type Answer<T> = T | Transfer<T>;
export type Handlers<P extends Protocol> = {
  [K in keyof P]: (payload: P[K]["payload"]) => Answer<P[K]["reply"]> | Promise<Answer<P[K]["reply"]>>;
};
export type Listeners<N extends Notices> = { [K in keyof N]: (payload: N[K]) => void };
export type CallOptions = { transfer?: Transferable[]; timeoutMs?: number };

/** A call that got no answer in time. */
export class RpcTimeout extends Error {}

type Envelope =
  | { rpc: "call"; id: number; name: string; payload: unknown }
  | { rpc: "reply"; id: number; value: unknown }
  | { rpc: "error"; id: number; error: string }
  | { rpc: "notice"; name: string; payload: unknown };

type Port = {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
};

type Waiting = {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | null;
};

/** One end of the conversation: calls out (`Out`), answers `In`, sends `Told` and hears `Heard`. */
export class Endpoint<Out extends Protocol, In extends Protocol, Told extends Notices, Heard extends Notices> {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private failure: Error | null = null;

  constructor(
    private readonly port: Port,
    private readonly handlers: Handlers<In>,
    private readonly listeners: Listeners<Heard>,
  ) {
    port.addEventListener("message", (event: MessageEvent<Envelope>) => this.receive(event.data));
  }

  /** Calls not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  call<K extends keyof Out & string>(
    name: K,
    payload: Out[K]["payload"],
    options: CallOptions = {},
  ): Promise<Out[K]["reply"]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer =
        options.timeoutMs === undefined
          ? null
          : setTimeout(() => {
              this.waiting.delete(id);
              reject(new RpcTimeout(`${name} got no answer within ${options.timeoutMs} ms`));
            }, options.timeoutMs);
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.port.postMessage({ rpc: "call", id, name, payload } satisfies Envelope, options.transfer ?? []);
    });
  }

  notify<K extends keyof Told & string>(name: K, payload: Told[K], transferList: Transferable[] = []): void {
    this.port.postMessage({ rpc: "notice", name, payload } satisfies Envelope, transferList);
  }

  /** The other side is gone: every pending call, and any made from now on, rejects with `error`. */
  fail(error: Error): void {
    this.failure ??= error;
    for (const { reject, timer } of this.waiting.values()) {
      if (timer) clearTimeout(timer);
      reject(error);
    }
    this.waiting.clear();
  }

  private receive(message: Envelope): void {
    switch (message.rpc) {
      case "call":
        void this.answer(message.id, message.name, message.payload);
        break;
      case "notice":
        this.listeners[message.name]?.(message.payload as Heard[string]);
        break;
      default: {
        const waiting = this.waiting.get(message.id);
        if (!waiting) return; // timed out already
        this.waiting.delete(message.id);
        if (waiting.timer) clearTimeout(waiting.timer);
        if (message.rpc === "reply") waiting.resolve(message.value);
        else waiting.reject(new Error(message.error));
      }
    }
  }

  private async answer(id: number, name: string, payload: unknown): Promise<void> {
    try {
      const handler = this.handlers[name];
      if (!handler) throw new Error(`no handler for ${name}`);
      const answer = await handler(payload);
      if (answer instanceof Transfer)
        this.port.postMessage({ rpc: "reply", id, value: answer.value } satisfies Envelope, answer.list);
      else this.port.postMessage({ rpc: "reply", id, value: answer } satisfies Envelope);
    } catch (error) {
      this.port.postMessage({
        rpc: "error",
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies Envelope);
    }
  }
}

export type WorkerClient<P extends WorkerProtocol> = Endpoint<P["worker"], P["parent"], {}, P["notices"]>;

/**
 * The parent's end for `worker`: answers the Worker's calls with `handlers`, hears its notices with `listeners`.
 * When the Worker reports an error or exits, its pending calls reject; `name` says which Worker in the error.
 */
export function connectWorker<P extends WorkerProtocol>(
  worker: Worker,
  handlers: Handlers<P["parent"]>,
  listeners: Listeners<P["notices"]>,
  name: string,
): WorkerClient<P> {
  const client = new Endpoint<P["worker"], P["parent"], {}, P["notices"]>(worker, handlers, listeners);
  worker.addEventListener("error", (event) => client.fail(new Error(`${name} failed: ${event.message}`)));
  worker.addEventListener("close", () => client.fail(new Error(`${name} stopped`)));
  return client;
}

/** The answer to a Worker's first call (`opening`); when it fails, the Worker is ended and the error says it did not start. */
export async function started<T>(worker: Worker, opening: Promise<T>, name: string): Promise<T> {
  try {
    return await opening;
  } catch (error) {
    worker.terminate();
    throw new Error(`${name} failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The Worker's end (`port`: its `self`): answers its parent's calls with `handlers`; calls the parent and sends notices through it. */
export function serveParent<P extends WorkerProtocol>(
  port: Port,
  handlers: Handlers<P["worker"]>,
): Endpoint<P["parent"], P["worker"], P["notices"], {}> {
  return new Endpoint<P["parent"], P["worker"], P["notices"], {}>(port, handlers, {});
}
