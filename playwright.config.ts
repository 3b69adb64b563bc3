// Browser tests in Debian's Chromium (never a downloaded browser) against the real server and fake providers.
import { execFileSync } from "node:child_process";
import { defineConfig } from "@playwright/test";

/**
 * Ports free right now, all distinct, below the kernel's ephemeral range (as tests/helpers/free-port.ts, whose
 * comment says why): asked of a short-lived child process, because a config is loaded synchronously.
 */
function freePorts(count: number): number[] {
  const script = `
    const net = require("node:net");
    const ports = [];
    const next = () => {
      if (ports.length === ${count}) return console.log(ports.join(" "));
      const port = 20000 + Math.floor(Math.random() * 12768);
      if (ports.includes(port)) return next();
      const server = net.createServer();
      server.once("error", next);
      server.listen(port, "127.0.0.1", () => server.close(() => (ports.push(port), next())));
    };
    next();`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim().split(" ").map(Number);
}

// Chosen once, in the first process that loads this file: Playwright loads it again in every worker, and the
// workers inherit the environment, so all of them agree on the ports. Two runs on one machine do not collide.
// Set LINKPREV_E2E_PORT (and LINKPREV_E2E_INFO_PORT) yourself to pin them.
if (!process.env.LINKPREV_E2E_PORT || !process.env.LINKPREV_E2E_INFO_PORT) {
  const [app, info] = freePorts(2);
  process.env.LINKPREV_E2E_PORT = String(app);
  process.env.LINKPREV_E2E_INFO_PORT = String(info);
}
const port = Number(process.env.LINKPREV_E2E_PORT);
const infoPort = Number(process.env.LINKPREV_E2E_INFO_PORT);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  // One browser by default: on 2 cores, two made the axe audits of the largest pages (13 s alone) pass the 30 s
  // timeout (docs/decisions/0032). Tests share nothing but the server (each signs in as a new account;
  // tests/fakes/google.ts keeps parallel sign-ins apart), so E2E_WORKERS=2 is safe where there are cores to spare.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  timeout: 30_000,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Headless Chromium says "HeadlessChrome", which LinkPrev rightly counts as a bot: browse as a person does.
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: `bun tests/e2e/server.ts`,
    env: { E2E_PORT: String(port), E2E_INFO_PORT: String(infoPort) },
    url: `http://127.0.0.1:${port}/healthz`,
    // Never reuse: a server answering on a port just found free belongs to someone else's run.
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
