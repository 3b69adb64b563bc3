// Waiting for something the system does on its own (a writer's flush, a node's start, a notification): poll until
// `check` passes, then return its value; past the deadline, fail with its last error. A test waits for the event,
// never for a fixed time.
/** Thrown by a check to stop waiting at once: what it waits for can no longer happen. */
export class GiveUp extends Error {}

export type EventuallyOptions = { timeoutMs?: number; intervalMs?: number; what?: string };

export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 20, what }: EventuallyOptions = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown = new Error("not tried");
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    if (performance.now() >= deadline) {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(`${what ? `waited ${timeoutMs} ms for ${what}` : `not true after ${timeoutMs} ms`}: ${reason}`);
    }
    await Bun.sleep(intervalMs);
  }
}

/** Passes when `condition` is true (a check for eventually). */
export function isTrue(condition: boolean, what: string): void {
  if (!condition) throw new Error(`${what} is not true yet`);
}

/** Waits until `url`'s /healthz answers 200, or `exited` settles first (the process died: fail at once). */
export async function healthy(
  url: string,
  opts: EventuallyOptions & { exited?: () => number | null } = {},
): Promise<void> {
  await eventually(
    async () => {
      const code = opts.exited?.() ?? null;
      if (code !== null) throw new GiveUp(`the server at ${url} exited (${code})`);
      const ok = await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      isTrue(ok, `${url}/healthz answering 200`);
    },
    { what: `${url} to answer /healthz`, timeoutMs: 20_000, ...opts },
  );
}
