// A hook's failure is reported as "(unnamed)" by bun test, with no line of the hook: long setups and teardowns
// name each step, so that a failure in CI says which one failed.

const failure = (name: string, error: unknown) => `${name}: ${error instanceof Error ? error.message : String(error)}`;

/** Runs one step of a setup, naming it in the error should it fail. */
export async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(failure(name, error), { cause: error });
  }
}

/** Runs every step of a teardown, even after one fails; then fails naming each that did. */
export async function cleanUp(steps: Array<[name: string, work: () => unknown]>): Promise<void> {
  const failed: string[] = [];
  for (const [name, work] of steps) {
    try {
      await work();
    } catch (error) {
      failed.push(failure(name, error));
    }
  }
  if (failed.length > 0) throw new Error(`teardown failed: ${failed.join("; ")}`);
}
