import pkg from "../../package.json" with { type: "json" };

export type VersionInfo = { major: number; minor: number; patch: number; release: string };

/** Set by scripts/build-binary.ts in a compiled binary. */
declare const LINKPREV_BUILD_RELEASE: string | undefined;

/** The running release: the configured id, else the one built in, else the git short sha of the checkout, else "dev". */
export function resolveRelease(configured: string | undefined): string {
  if (configured) return configured;
  if (typeof LINKPREV_BUILD_RELEASE === "string") return LINKPREV_BUILD_RELEASE;
  try {
    const git = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: import.meta.dir, stderr: "ignore" });
    const sha = git.stdout.toString().trim();
    if (git.success && /^[0-9a-f]{4,40}$/.test(sha)) return sha;
  } catch {
    // no git here (a compiled binary, a container): fall through
  }
  return "dev";
}

export function versionInfo(release: string): VersionInfo {
  const [major = 0, minor = 0, patch = 0] = pkg.version.split(/[.-]/).map(Number);
  return { major, minor, patch, release };
}

export const formatVersion = (v: VersionInfo) => `${v.major}.${v.minor}.${v.patch}-${v.release}`;
