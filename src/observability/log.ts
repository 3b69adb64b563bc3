// The server's log lines: one per request (never /go: metrics count it), one per unexpected error, and what the
// server and its jobs say of themselves (start-up, warnings), as JSON for a log collector or as text for a person
// (LOG_FORMAT). Every line the server writes goes through here, so that LOG_FORMAT=json writes JSON lines only
// (tests/unit/fitness-clock-and-log.test.ts). Callers pass facts, never headers, cookies or query strings, so that
// no secret can reach a line.
import { printable } from "./printable.ts";

export type RequestLine = {
  method: string;
  /** The route pattern ("/api/links/:id"), never the raw path: ids, slugs and query strings stay out. */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  userId?: number;
};

export type Logger = {
  request(line: RequestLine): void;
  /** An unexpected failure, with its stack. */
  error(message: string, error: unknown, requestId?: string): void;
  /** Something a limit turned away or ended, or a setting to fix (the server carries on): never request data. */
  warn(message: string): void;
  /** What the server did of its own (start-up, a job's result), for the operator: never request data. */
  info(message: string): void;
};

function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: `${error.name}: ${error.message}`, stack: error.stack };
  return { error: String(error) };
}

export type LogFormat = "json" | "text" | "off";

/** Request and info lines go to stdout, errors and warnings to stderr; "off" leaves request lines out (and writes text). */
export function createLogger(
  format: LogFormat,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  writeError: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const time = () => new Date().toISOString();
  if (format === "json") {
    return {
      request: (line) =>
        write(
          JSON.stringify({
            time: time(),
            level: "info",
            msg: "request",
            ...line,
            durationMs: Math.round(line.durationMs * 10) / 10,
          }),
        ),
      error: (message, error, requestId) =>
        writeError(
          JSON.stringify({
            time: time(),
            level: "error",
            msg: message,
            ...(requestId ? { requestId } : {}),
            ...errorFields(error),
          }),
        ),
      warn: (message) => writeError(JSON.stringify({ time: time(), level: "warn", msg: message })),
      info: (message) => write(JSON.stringify({ time: time(), level: "info", msg: message })),
    };
  }
  return {
    request:
      format === "off"
        ? () => {}
        : ({ method, route, status, durationMs, requestId, userId }) =>
            write(
              `${time()} ${method} ${route} ${status} ${durationMs.toFixed(1)}ms id=${requestId}${userId !== undefined ? ` user=${userId}` : ""}`,
            ),
    // A person reads these: what a request may have put in an error's message (or its id) is escaped, so that it
    // cannot forge a line; the stack's own frames keep their lines.
    error: (message, error, requestId) => {
      const { error: text, stack } = errorFields(error);
      const frames = stack?.indexOf("\n    at ") ?? -1;
      writeError(
        `${time()} ERROR ${printable(message)}${requestId ? ` id=${printable(requestId)}` : ""}: ${printable(text)}${frames === -1 ? "" : stack!.slice(frames)}`,
      );
    },
    warn: (message) => writeError(`${time()} WARN ${printable(message)}`),
    // Written with "off" too: only request lines are what "off" leaves out.
    info: (message) => write(`${time()} INFO ${printable(message)}`),
  };
}
