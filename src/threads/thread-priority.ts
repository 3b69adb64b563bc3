// Lowers the calling thread's scheduling priority (its Linux nice value), so that when every core is busy the
// request thread's /go answers run before a page's render (docs/decisions/0036). Bun has no thread-priority API;
// libc's setpriority on the thread's own id sets one thread's nice. Raising nice needs no privilege.
import { dlopen, FFIType } from "bun:ffi";

/** setpriority's `which`: with a thread id as `who`, Linux applies it to that thread alone. */
const PRIO_PROCESS = 0;

/** Sets the calling thread's nice value; says why not where it could not (another OS, no libc.so.6, refused). */
export function lowerThreadPriority(nice: number): { ok: true } | { ok: false; why: string } {
  if (nice === 0) return { ok: true };
  if (process.platform !== "linux")
    return { ok: false, why: `thread priorities are set on Linux only (this is ${process.platform})` };
  try {
    const libc = dlopen("libc.so.6", {
      gettid: { args: [], returns: FFIType.i32 },
      setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 },
    });
    try {
      return libc.symbols.setpriority(PRIO_PROCESS, libc.symbols.gettid(), nice) === 0
        ? { ok: true }
        : { ok: false, why: "setpriority refused" };
    } finally {
      libc.close();
    }
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}
