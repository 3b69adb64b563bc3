// Where the client commands find their server, token and workspace: LINKPREV_SERVER / LINKPREV_TOKEN /
// LINKPREV_WORKSPACE (the global --workspace sets it), else the file that `linkprev login` (and `workspaces switch`) wrote ($XDG_CONFIG_HOME/linkprev/config.json, mode 0600). The client's only reader of env.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** `workspace`: the slug every call names (?workspace=), none for the token's own workspace. */
export type ClientSettings = { server: string; token: string; workspace?: string };

export function settingsPath(): string {
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "linkprev", "config.json");
}

function readFile(): Partial<ClientSettings> {
  const path = settingsPath();
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Partial<ClientSettings>;
  } catch {
    return {};
  }
}

export function loadSettings(): Partial<ClientSettings> {
  const file = readFile();
  return {
    server: process.env.LINKPREV_SERVER || file.server,
    token: process.env.LINKPREV_TOKEN || file.token,
    workspace: process.env.LINKPREV_WORKSPACE || file.workspace,
  };
}

/** Where the server address in use was set, for an error message that tells what to change. */
export function serverSource(): string {
  return process.env.LINKPREV_SERVER ? "LINKPREV_SERVER" : `linkprev login (stored in ${settingsPath()})`;
}

/** Where the token in use was set. */
export function tokenSource(): string {
  return process.env.LINKPREV_TOKEN ? "LINKPREV_TOKEN" : `linkprev login (stored in ${settingsPath()})`;
}

export function saveSettings(settings: ClientSettings): string {
  const path = settingsPath();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/** Remembers the workspace later commands act in (`linkprev workspaces switch`); undefined: the token's own. */
export function saveWorkspace(workspace: string | undefined): string {
  // JSON leaves out an undefined workspace: the token's own again.
  return saveSettings({ ...(readFile() as ClientSettings), workspace });
}

export function forgetSettings(): boolean {
  const path = settingsPath();
  if (!existsSync(path)) return false;
  rmSync(path);
  return true;
}
