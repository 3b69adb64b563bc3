// Real User-Agents for tests, apart from tests/helpers/server.ts so unit tests need not load the server.
import agents from "../fixtures/crawler-agents.json" with { type: "json" };

/**
 * Real User-Agents (from shared/crawler-agents.json): crawlers that get the card by platform, other bots by kind
 * (the 302, docs/decisions/0059), people.
 */
export const crawlerAgents: {
  crawlers: Record<string, string[]>;
  bots: Record<string, string[]>;
  people: Record<string, string>;
} = agents;
