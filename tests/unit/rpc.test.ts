import { afterEach, expect, test } from "bun:test";
import { connectWorker, RpcTimeout, type WorkerClient } from "../../src/threads/rpc.ts";
import type { TestProtocol } from "../fixtures/rpc-worker.ts";

const started: Worker[] = [];
afterEach(() => {
  for (const worker of started.splice(0)) worker.terminate();
});

function start(progress: (n: number) => void = () => {}): WorkerClient<TestProtocol> {
  const worker = new Worker(new URL("../fixtures/rpc-worker.ts", import.meta.url).href);
  started.push(worker);
  return connectWorker<TestProtocol>(
    worker,
    { prefix: (n) => `#${n % 7}:` },
    { progress: ({ n }) => progress(n) },
    "test worker",
  );
}

test("a call carries its bytes by transfer and its reply comes back typed, with the reply's bytes moved too", async () => {
  const client = start();
  const bytes = new Uint8Array([1, 2, 3]).buffer;
  const reply = await client.call("double", { bytes }, { transfer: [bytes] });
  expect(bytes.byteLength).toBe(0); // moved, not copied
  expect(reply.received).toBe(3);
  expect([...new Uint8Array(reply.bytes)]).toEqual([2, 4, 6]);
  expect(client.pending).toBe(0);
});

test("a call with no answer within its timeout rejects with RpcTimeout, and is no longer pending", async () => {
  const client = start();
  const call = client.call("hang", undefined, { timeoutMs: 50 });
  expect(client.pending).toBe(1);
  const error = await call.catch((error: unknown) => error);
  expect(error).toBeInstanceOf(RpcTimeout);
  expect(String(error)).toContain("hang got no answer within 50 ms");
  expect(client.pending).toBe(0);
});

test("a handler's error rejects that call with its message", async () => {
  await expect(start().call("fail", undefined)).rejects.toThrow("refused on purpose");
});

test("a Worker that exits rejects every call it had pending, and any made after", async () => {
  const client = start();
  const waiting = [
    client.call("hang", undefined),
    client.call("hang", undefined),
    client.call("label", { n: 1, delayMs: 60_000 }),
  ];
  const exited = client.call("exit", undefined);
  const outcomes = await Promise.allSettled([...waiting, exited]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
  expect(String((outcomes[0] as PromiseRejectedResult).reason)).toContain("test worker stopped");
  expect(client.pending).toBe(0);
  await expect(client.call("double", { bytes: new ArrayBuffer(1) })).rejects.toThrow("test worker stopped");
});

test("concurrent calls, answered out of order and calling back to the parent, each get their own reply", async () => {
  const heard: number[] = [];
  const client = start((n) => heard.push(n));
  const count = 200;
  // Later calls answer sooner, so replies come back in an order unlike the calls'.
  const replies = await Promise.all(
    Array.from({ length: count }, (_, n) => client.call("label", { n, delayMs: (count - n) % 13 })),
  );
  expect(replies).toEqual(Array.from({ length: count }, (_, n) => `#${n % 7}:${n}`));
  expect(heard.sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
});
