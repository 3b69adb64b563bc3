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
