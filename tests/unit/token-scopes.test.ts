// What a token's scopes allow (src/auth/token-scopes.ts): each action's scope, workspace:admin for everything, writing
// links includes reading them, and a token from before scopes keeps every power.
import { expect, test } from "bun:test";
import { parsedScopes, storedScopes, tokenMay } from "../../src/auth/token-scopes.ts";
import { ACTIONS } from "../../src/workspaces/permissions.ts";

test("each scope opens its actions only; workspace:admin and a token from before scopes open all", () => {
  const opened = (scopes: Parameters<typeof tokenMay>[0]) => ACTIONS.filter((action) => tokenMay(scopes, action));
  expect(opened(["links:read"])).toEqual(["links.read", "settings.read"]);
  expect(opened(["links:write"])).toEqual(["links.read", "settings.read", "links.write"]);
  expect(opened(["domains:write"])).toEqual(["domains.write"]);
  expect(opened(["webhooks:write"])).toEqual(["webhooks.write"]);
  expect(opened(["analytics:read"])).toEqual(["analytics.read"]);
  expect(opened(["workspace:admin"])).toEqual([...ACTIONS]);
  expect(opened(null)).toEqual([...ACTIONS]);
  for (const scopes of [["links:write", "domains:write", "webhooks:write", "links:read", "analytics:read"]] as const)
    expect(opened([...scopes])).not.toContain("tokens.write");
});

test("scopes are stored as one text in a fixed order and read back; null stays null", () => {
  expect(storedScopes(["webhooks:write", "links:read"])).toBe("links:read webhooks:write");
  expect(parsedScopes("links:read webhooks:write")).toEqual(["links:read", "webhooks:write"]);
  expect(storedScopes(null)).toBeNull();
  expect(parsedScopes(null)).toBeNull();
});
