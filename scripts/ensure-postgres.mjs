// The PostgreSQL test pass (LINKPREV_TEST_DB=postgres) starts throwaway clusters with Debian's PostgreSQL binaries;
// install them when missing (root on these machines). Only the binaries are needed: nothing here starts a server.
import { existsSync, readdirSync } from "node:fs";
import { execSync } from "node:child_process";

/** The newest /usr/lib/postgresql/<version>/bin with initdb, or null (the same rule as tests/helpers/postgres-cluster.ts). */
function findPgBin() {
  let versions = [];
  try {
    versions = readdirSync("/usr/lib/postgresql");
  } catch {}
  const usable = versions
    .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  return usable.length > 0 ? `/usr/lib/postgresql/${usable.at(-1)}/bin` : null;
}

const found = findPgBin();
if (found !== null) {
  console.error(`PostgreSQL is installed (${found}); nothing to do.`);
} else if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
  // Under CI=true a skipped PostgreSQL pass would read as green: stop here (tests/helpers/engine-preload.ts agrees).
  const ci = process.env.CI === "true";
  console.error(
    `PostgreSQL is not installed, so the PostgreSQL test pass ${ci ? "cannot run under CI=true" : "will be skipped"}; install it with \`sudo apt-get install postgresql\` (Debian/Ubuntu) and rerun.`,
  );
  if (ci) process.exit(1);
} else {
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql", {
    stdio: "inherit",
    shell: "/bin/bash",
  });
  const installed = findPgBin();
  if (installed === null)
    throw new Error("apt-get installed postgresql, but no /usr/lib/postgresql/*/bin/initdb appeared");
  console.error(`Installed Debian's postgresql (${installed}); the tests start their own throwaway clusters from it.`);
}
