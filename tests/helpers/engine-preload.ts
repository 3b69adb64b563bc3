// Loaded before every test file (bunfig.toml). On the PostgreSQL pass (LINKPREV_TEST_DB=postgres): where
// PostgreSQL cannot be installed, fail under CI=true (a pass that tested nothing must not read as green) and, on a
// developer's machine, say so and run nothing; otherwise stop the run's throwaway cluster when the run ends (bun test
// does not fire process "exit" handlers on a normal end, but runs a preload's afterAll).
import { afterAll } from "bun:test";
import { findPgBin } from "./postgres-cluster.ts";
import { stopTestCluster } from "./postgres-test-cluster.ts";
import { testEngine } from "./test-engine.ts";

if (testEngine === "postgres" && findPgBin() === null) {
  const install = "as root, npm test installs Debian's postgresql; else: sudo apt-get install postgresql";
  if (process.env.CI === "true") {
    console.error(`PostgreSQL pass failed: PostgreSQL is not installed here, and CI=true needs it (${install})`);
    process.exit(1);
  }
  console.warn(`PostgreSQL pass skipped: PostgreSQL is not installed here (${install})`);
  process.exit(0);
}

afterAll(() => stopTestCluster());
