// A TCP proxy in front of PostgreSQL's Unix socket that can lose a commit's answer: armed, it lets the view writer's
// next INSERT commit (PostgreSQL has answered CommandComplete and ReadyForQuery) and then cuts the connection
// instead of passing that answer on, so the writer cannot know the batch was stored (tests/reliability/).
import { createConnection, createServer, type Socket } from "node:net";

export type CommitCuttingProxy = {
  /** The database URL `url` rewritten to go through the proxy (TCP on loopback). */
  url(url: string): string;
  /** Arms the cut; resolves once a commit's answer has been cut. */
  cutNextCommit(): Promise<void>;
  /** Answers cut so far. */
  readonly cuts: number;
  close(): void;
};

/** `socketPath`: the cluster's `.s.PGSQL.5432`. */
export async function commitCuttingProxy(socketPath: string): Promise<CommitCuttingProxy> {
  let armed: (() => void) | null = null;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ path: socketPath });
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    // The writer's connection is the one that sends the view batch statement (its text names view_batches).
    let writer = false;
    client.on("data", (chunk: Buffer) => {
      if (!writer && chunk.includes("view_batches")) writer = true;
      upstream.write(chunk);
    });
    // Server messages: a type byte and a length; the first answer may be a lone 'N' (no TLS).
    let pending = Buffer.alloc(0);
    let started = false;
    let holding = false;
    upstream.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (!started && pending[0] === 0x4e) pending = pending.subarray(1);
      started = true;
      while (pending.length >= 5) {
        const length = pending.readUInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = String.fromCharCode(pending[0]!);
        if (
          writer &&
          armed &&
          type === "C" &&
          pending
            .subarray(5, 1 + length)
            .toString()
            .startsWith("INSERT")
        )
          holding = true;
        pending = pending.subarray(1 + length);
        if (holding && type === "Z") {
          // Committed, answered, and the answer never arrives.
          cuts++;
          const done = armed;
          armed = null;
          end();
          done?.();
          return;
        }
      }
      if (!holding) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url(url) {
      const parsed = new URL(url);
      const database = parsed.pathname;
      return `postgres://postgres@127.0.0.1:${port}${database}`;
    },
    cutNextCommit: () => new Promise<void>((resolve) => (armed = resolve)),
    get cuts() {
      return cuts;
    },
    close() {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
