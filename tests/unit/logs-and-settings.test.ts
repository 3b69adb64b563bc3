// The log lines' shape (one JSON object per line with the request's facts, errors with their stack and request
// id) and the observability settings.
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config/config.ts";
import { createLogger } from "../../src/observability/log.ts";

function capture(format: "json" | "text" | "off") {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    log: createLogger(
      format,
      (line) => out.push(line),
      (line) => err.push(line),
    ),
  };
}

test("json: a request line holds time, method, route pattern, status, duration, request id and user id", () => {
  const { out, log } = capture("json");
  log.request({
    method: "GET",
    route: "/api/links/:id",
    status: 200,
    durationMs: 3.14159,
    requestId: "abc",
    userId: 7,
  });
  log.request({ method: "GET", route: "/", status: 200, durationMs: 1, requestId: "def" });
  const [signedIn, anonymous] = out.map((line) => JSON.parse(line));
  expect(signedIn).toEqual({
    time: expect.any(String),
    level: "info",
    msg: "request",
    method: "GET",
    route: "/api/links/:id",
    status: 200,
    durationMs: 3.1,
    requestId: "abc",
    userId: 7,
  });
  expect(Number.isNaN(Date.parse(signedIn.time))).toBe(false);
  expect("userId" in anonymous).toBe(false);
});

test("json: an error goes to stderr with its stack and the request id", () => {
  const { out, err, log } = capture("json");
  log.error("request failed", new Error("boom"), "req-1");
  expect(out).toEqual([]);
  const line = JSON.parse(err[0]!);
  expect(line).toMatchObject({ level: "error", msg: "request failed", requestId: "req-1", error: "Error: boom" });
  expect(line.stack).toContain("logs-and-settings.test.ts");
});

test("a warning goes to stderr: json with level warn, text as WARN, and still when off", () => {
  const json = capture("json");
  json.log.warn("an image job was turned away");
  expect(json.out).toEqual([]);
  expect(JSON.parse(json.err[0]!)).toMatchObject({ level: "warn", msg: "an image job was turned away" });
  const text = capture("text");
  text.log.warn("an image job was turned away");
  expect(text.err[0]).toMatch(/^\S+ WARN an image job was turned away$/);
  const off = capture("off");
  off.log.warn("an image job was turned away");
  expect(off.err).toHaveLength(1);
});

test("text: one readable line; off: no request lines but errors still", () => {
  const text = capture("text");
  text.log.request({ method: "POST", route: "/api/links/", status: 201, durationMs: 12.34, requestId: "r", userId: 3 });
  expect(text.out[0]).toMatch(/^\S+ POST \/api\/links\/ 201 12\.3ms id=r user=3$/);
  const off = capture("off");
  off.log.request({ method: "GET", route: "/", status: 200, durationMs: 1, requestId: "r" });
  off.log.error("request failed", new Error("boom"));
  expect(off.out).toEqual([]);
  expect(off.err[0]).toContain("Error: boom");
});

test("settings: LOG_FORMAT defaults by terminal, METRICS_TOKEN is long and never echoed, metrics off by default", () => {
  expect(loadConfig({}, { LOG_FORMAT: "json" }).logFormat).toBe("json");
  expect(loadConfig({}, {}).logFormat).toBe(process.stdout.isTTY ? "text" : "json");
  expect(() => loadConfig({}, { LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
  expect(loadConfig({}, {}).metrics).toEqual({ token: null, host: "127.0.0.1", port: null });
  expect(loadConfig({}, { METRICS_TOKEN: "a-long-enough-token", METRICS_PORT: "9464" }).metrics).toEqual({
    token: "a-long-enough-token",
    host: "127.0.0.1",
    port: 9464,
  });
  expect(() => loadConfig({}, { METRICS_TOKEN: "short-secret" })).toThrow(/METRICS_TOKEN=\(not shown/);
});
