// Loaded before every test file (bunfig.toml). On the PostgreSQL pass, stops the run's throwaway cluster when the
// run ends: bun test does not fire process "exit" handlers on a normal end, but runs a preload's afterAll.
import { afterAll } from "bun:test";
import { stopTestCluster } from "./postgres-test-cluster.ts";

afterAll(() => stopTestCluster());
