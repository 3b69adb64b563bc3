// The custom-domain TLS test (tests/system/caddy-on-demand.test.ts) runs Debian's caddy in front of a real server;
// install it when missing (root on these machines). Otherwise that test says it is skipped, and why.
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

const CADDY = "/usr/bin/caddy";
if (existsSync(CADDY)) {
  console.error(`Caddy is installed (${CADDY}); nothing to do.`);
} else if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
  console.error(
    "Caddy is not installed, so the on-demand TLS test will be skipped; install it with `sudo apt-get install caddy` (Debian/Ubuntu) and rerun.",
  );
} else {
  execSync(
    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends caddy",
    { stdio: "inherit", shell: "/bin/bash" },
  );
  if (!existsSync(CADDY)) throw new Error("apt-get installed caddy, but no /usr/bin/caddy appeared");
  // The package starts a system service on port 80; the tests run their own Caddy on free ports.
  try {
    execSync("systemctl disable --now caddy", { stdio: "ignore" });
  } catch {}
  console.error("Installed Debian's caddy; the on-demand TLS test runs its own instance on free ports.");
}
