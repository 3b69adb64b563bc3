// Which database engine this test run uses, apart from tests/helpers/server.ts so the preload need not load the server.

/** Which engine the test servers of this run use: `LINKPREV_TEST_DB=postgres` for the PostgreSQL pass. */
export const testEngine: "sqlite" | "postgres" = process.env.LINKPREV_TEST_DB === "postgres" ? "postgres" : "sqlite";
