// Loaded before every test file (bunfig.toml). On the PostgreSQL pass (LINKPREV_TEST_DB=postgres): where
// PostgreSQL cannot be installed, say so and run nothing; otherwise stop the run's throwaway cluster when the run
// ends (bun test does not fire process "exit" handlers on a normal end, but runs a preload's afterAll).
import { afterAll } from "bun:test";
import { findPgBin } from "./postgres-cluster.ts";
import { stopTestCluster } from "./postgres-test-cluster.ts";
import { testEngine } from "./test-engine.ts";

if (testEngine === "postgres" && findPgBin() === null) {
  console.warn(
    "PostgreSQL pass skipped: PostgreSQL is not installed here (as root, npm test installs Debian's postgresql; else: sudo apt-get install postgresql)",
  );
  process.exit(0);
}

afterAll(() => stopTestCluster());
