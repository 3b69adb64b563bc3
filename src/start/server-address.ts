// Where a running server can be reached, for the `linkprev admin` commands run beside it: `serve` writes
// DATA_DIR/server.json (0600) once it listens and removes it when it stops, so `admin health` and
// `admin login-link` use the server's real port and PUBLIC_URL instead of the defaults.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writePrivateFile } from "../private-files.ts";

export type ServerAddress = { url: string; publicUrl: string; pid: number };

const fileIn = (dataDir: string) => join(dataDir, "server.json");

/** An address the same machine can call: a wildcard bind (0.0.0.0, ::) is reached on loopback. */
function callableUrl(url: string): string {
  return url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
}

export async function writeServerAddress(dataDir: string, address: ServerAddress): Promise<void> {
  await writePrivateFile(
    fileIn(dataDir),
    new TextEncoder().encode(`${JSON.stringify({ ...address, url: callableUrl(address.url) })}\n`),
  );
}

export function removeServerAddress(dataDir: string): void {
  rmSync(fileIn(dataDir), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The server running on this data directory, or null (none started, or the one that wrote the file has died). */
export function runningServer(dataDir: string): ServerAddress | null {
  const path = fileIn(dataDir);
  if (!existsSync(path)) return null;
  try {
    const address = JSON.parse(readFileSync(path, "utf8")) as ServerAddress;
    return typeof address.url === "string" &&
      typeof address.publicUrl === "string" &&
      Number.isInteger(address.pid) &&
      alive(address.pid)
      ? address
      : null;
  } catch {
    return null;
  }
}
