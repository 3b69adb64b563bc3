// Small pieces of reading an answer (fetcher.ts): its media type and charset, and a wait that an abort ends.

/** The media type of a Content-Type header, lower case, without parameters. */
export const mediaType = (header: string | null) => (header ?? "").split(";")[0]!.trim().toLowerCase();

/** A decoder for the charset the Content-Type names (UTF-8 when none, or one unknown). */
export function pageDecoder(contentType: string | null): TextDecoder {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/** `work`, or the abort's reason once `signal` fires. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    }),
  ]);
}

/** Hands each chunk to `take` until it returns false or the body ends; stops reading (and the download) then. */
export async function readBody(
  response: Response,
  signal: AbortSignal,
  take: (chunk: Uint8Array) => boolean,
): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
  );
  aborted.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done || !take(value)) break;
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
}
