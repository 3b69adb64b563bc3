// LinkPrev nodes as separate `linkprev serve` processes, as in production (each process switches its tables
// module to its engine once, so PostgreSQL servers cannot share the test process), plus small API helpers.
import type { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashSecret } from "../../src/auth/tokens.ts";
import { healthy } from "./eventually.ts";
import { freePort } from "./free-port.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");

export type Node = {
  url: string;
  dataDir: string;
  child: ReturnType<typeof Bun.spawn>;
  /** Everything the process wrote, once it has exited. */
  stdout: Promise<string>;
  stderr: Promise<string>;
};

/**
 * Starts `linkprev serve` with `env` (on top of this process's environment) and waits for /healthz.
 * `dataDir`: an existing data directory; otherwise a new one, removed by stopNode.
 */
export async function startNode(env: Record<string, string>, dataDir?: string): Promise<Node> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "linkprev-node-"));
  const child = Bun.spawn([process.execPath, cli, "serve", "--port", String(port), "--data", dir], {
    // The abuse brakes for new accounts are off: tests create many links from accounts made a moment ago.
    // The image deadline is a shared test machine's (see tests/helpers/server.ts).
    env: {
      ...process.env,
      PUBLIC_URL: "http://links.test",
      AUTH_RATE_LIMIT: "100000",
      NEW_ACCOUNT_LINKS: "0",
      TARGET_HOST_LINKS_PER_HOUR: "0",
      IMAGE_DEADLINE_MS: "120000",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const node: Node = {
    url,
    dataDir: dir,
    child,
    stdout: new Response(child.stdout).text(),
    stderr: new Response(child.stderr).text(),
  };
  try {
    await healthy(url, { exited: () => child.exitCode, timeoutMs: 15_000 });
    return node;
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${await node.stderr}`);
  }
}

/** Stops the node (gracefully unless told otherwise); removes its data directory unless `keepData`. */
export async function stopNode(
  node: Node,
  options: { signal?: "SIGTERM" | "SIGKILL"; keepData?: boolean } = {},
): Promise<void> {
  if (node.child.exitCode === null) {
    node.child.kill(options.signal ?? "SIGTERM");
    await node.child.exited;
  }
  if (!options.keepData) rmSync(node.dataDir, { recursive: true, force: true });
}

/** A user with an API token, inserted into PostgreSQL as sign-in and POST /api/tokens write them. */
export async function seedPgUserWithToken(db: SQL, slug: string): Promise<{ id: number; token: string }> {
  const token = `lp_${slug}_${crypto.randomUUID().replaceAll("-", "")}`;
  const [user] = await db`INSERT INTO users (email, user_slug) VALUES (${`${slug}@example.com`}, ${slug}) RETURNING id`;
  // As sign-up makes it (src/workspaces/personal.ts).
  const [workspace] =
    await db`INSERT INTO workspaces (slug, name, personal_user_id) VALUES (${slug}, 'Personal', ${user.id}) RETURNING id`;
  await db`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (${workspace.id}, ${user.id}, 'owner')`;
  await db`INSERT INTO api_tokens (user_id, workspace_id, name, token_hash) VALUES (${user.id}, ${workspace.id}, 'test', ${hashSecret(token)})`;
  await db`INSERT INTO user_consents (user_id, terms_accepted, privacy_accepted) VALUES (${user.id}, true, true)`;
  return { id: user.id, token };
}

/** An authenticated call to a node's API; `form` sends multipart (with an image), `json` sends JSON. */
export function apiCall(
  baseUrl: string,
  token: string,
  path: string,
  init: { method?: string; json?: unknown; form?: FormData } = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  return fetch(`${baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    redirect: "manual",
  });
}

/** A link form as the web page sends it, with an image file when given. */
export function linkForm(
  fields: Record<string, string>,
  image?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (image) data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}
