// The `linkprev` CLI as a user's shell runs it: a process of its own, awaited without blocking this process, which
// serves the test server the CLI calls.
import { join } from "node:path";
import { apiClient, seedApiToken, type ApiClient, type TestServer } from "./server.ts";

export const cliPath = join(import.meta.dir, "../../cli/linkprev.ts");

export type CliOptions = {
  /** On top of this process's environment; the whole environment with `inheritEnv: false`. */
  env?: Record<string, string>;
  inheritEnv?: boolean;
  cwd?: string;
  /** "ignore": no terminal on stdin, as a script runs it. */
  stdin?: "ignore";
  /** Wraps the command line, e.g. in script(1) for a pseudo-terminal. */
  wrap?: (command: string[]) => string[];
};

async function spawnAndRead<Out>(args: string[], options: CliOptions, read: (stdout: Response) => Promise<Out>) {
  const command = [process.execPath, cliPath, ...args];
  const child = Bun.spawn(options.wrap?.(command) ?? command, {
    env: options.inheritEnv === false ? options.env : { ...process.env, ...options.env },
    cwd: options.cwd,
    stdin: options.stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    read(new Response(child.stdout)),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

/** Runs `linkprev <args>`; its exit code and everything it wrote. */
export const runCli = (args: string[], options: CliOptions = {}) =>
  spawnAndRead(args, options, (stdout) => stdout.text());

/** The same, with standard output as bytes (an image written there). */
export const runCliForBytes = (args: string[], options: CliOptions = {}) =>
  spawnAndRead(args, options, (stdout) => stdout.bytes());

/** The environment that signs the CLI in to `server` with `token`; its config file goes to `configHome`. */
export const cliEnv = (server: TestServer, token: string, configHome = server.dataDir): Record<string, string> => ({
  LINKPREV_SERVER: server.url,
  LINKPREV_TOKEN: token,
  XDG_CONFIG_HOME: configHome,
});

/** A new user of `server` (as apiClient makes them) with an API token named "cli", and the CLI's environment as them. */
export async function cliUser(
  server: TestServer,
  userSlug: string,
  configHome?: string,
): Promise<{ client: ApiClient; env: Record<string, string> }> {
  const client = await apiClient(server, null, userSlug);
  const { token } = await seedApiToken(server.sql, client.userId, "cli");
  return { client, env: cliEnv(server, token, configHome) };
}

/**
 * A CLI that knows nothing of this machine: of this process's environment only PATH, its home and config in `home`
 * (where it runs, too), no terminal on stdin; signed in to `server` with `token`.
 */
export const cliAtHome = (server: TestServer, token: string, home: string): CliOptions => ({
  env: { PATH: process.env.PATH ?? "", HOME: home, ...cliEnv(server, token, home) },
  inheritEnv: false,
  cwd: home,
  stdin: "ignore",
});
