// Browser tests use Debian's Chromium; install it when it is missing (root on these machines).
import { existsSync } from "node:fs";
import { execSync } from "node:child_process";

if (!existsSync("/usr/bin/chromium")) {
  console.error("Installing Debian's chromium for the browser tests...");
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", {
    stdio: "inherit",
    shell: "/bin/bash",
  });
}
