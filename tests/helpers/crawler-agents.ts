// Real User-Agents for tests, apart from tests/helpers/server.ts so unit tests need not load the server.
import agents from "../fixtures/crawler-agents.json" with { type: "json" };

/** Real User-Agents (a copy of shared/crawler-agents.json). */
export const crawlerAgents: { crawlers: Record<string, string[]>; people: Record<string, string> } = agents;
