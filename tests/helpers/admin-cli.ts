// `linkprev admin …` run against a test server's database, as an operator's shell would (a process of its own).
import { join } from "node:path";
import type { TestServer } from "./server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");

/** The command's standard output; throws with its standard error when it fails. */
export function runAdmin(server: TestServer, ...args: string[]): string {
  const run = Bun.spawnSync([process.execPath, cli, "admin", ...args, "--data", server.dataDir], {
    env: { ...process.env, ...(server.ctx.config.postgres ? { DATABASE_URL: server.ctx.config.postgres.url } : {}) },
  });
  if (run.exitCode !== 0) throw new Error(`admin ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}
