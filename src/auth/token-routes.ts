// API tokens (decision 0065) at two addresses that answer alike: /api/tokens, in the workspace the caller acts in (a
// token's own, `?workspace=`, the current one), and /api/workspaces/{id}/tokens, which names it (issue 50, item 7).
// Both are built by `tokenRoutes` from one declaration; only the path and the operation ids differ.
import { Elysia } from "elysia";
import { z } from "zod";
import { asJson } from "../api-docs/json.ts";
import { pathId } from "../http/validate.ts";
import { workspaceId } from "../workspaces/id-params.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-tokens.ts";
import { routeGuards } from "./guards.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { grantOf, NewTokenInput } from "./token-input.ts";
import { ApiTokenSchema, NewApiTokenSchema } from "./wire.ts";

const tokenId = pathId("Token not found").describe("The token's id");

/** The two addresses: where the tokens are, what the path names, and the operation ids (unique in the document). */
const ADDRESSES = [
  {
    prefix: "/api/tokens",
    Params: undefined,
    TokenParams: z.object({ tokenId }),
    ids: { list: "listTokens", create: "createToken", revoke: "revokeToken" },
    where: "the workspace you act in",
  },
  {
    prefix: "/api/workspaces/:id/tokens",
    Params: z.object({ id: workspaceId }),
    TokenParams: z.object({ id: workspaceId, tokenId }),
    ids: { list: "listWorkspaceTokens", create: "createWorkspaceToken", revoke: "revokeWorkspaceToken" },
    where: "the workspace {id}",
  },
] as const;

function tokenRoutesAt(
  { session: sessions, authLimiter }: Pick<AuthRouteDeps, "session" | "authLimiter">,
  { prefix, Params, TokenParams, ids, where }: (typeof ADDRESSES)[number],
) {
  return new Elysia({ prefix })
    .use(routeGuards(sessions))
    .get("", async ({ workspace }) => asJson(await listApiTokens(sessions.db, workspace.id)), {
      permission: "settings.read",
      params: Params,
      response: { 200: z.array(ApiTokenSchema) },
      doc: {
        id: ids.list,
        tag: "Tokens",
        summary: `The API tokens of ${where} (never their secret)`,
        answers: { 200: "The tokens" },
      },
    })
    .post(
      "",
      async ({ user, workspace, body, ip, set }) => {
        await authLimiter.hit(ip);
        set.status = 201;
        const grant = grantOf(body, sessions.clock.now());
        return asJson(await createApiToken(sessions.db, user.id, workspace.id, body.name, grant));
      },
      {
        // A token makes tokens only with workspace:admin (src/auth/token-scopes.ts).
        permission: "tokens.write",
        params: Params,
        body: NewTokenInput,
        response: { 201: NewApiTokenSchema },
        doc: {
          id: ids.create,
          tag: "Tokens",
          summary: `Create an API token of ${where}`,
          body: { example: { name: "laptop", scopes: ["links:read", "links:write"], expiresInDays: 90 } },
          errors: [400, 403, 429],
          answers: { 201: "The token, with its secret shown this once" },
        },
      },
    )
    .delete(
      "/:tokenId",
      async ({ workspace, params, set }) => {
        await revokeApiToken(sessions.db, workspace.id, params.tokenId);
        set.status = 204;
        return null;
      },
      {
        permission: "tokens.write",
        params: TokenParams,
        doc: {
          id: ids.revoke,
          tag: "Tokens",
          summary: `Revoke an API token of ${where}`,
          errors: [403, 404],
          answers: { 204: "Done; no body" },
        },
      },
    );
}

/** GET, POST /api/tokens and DELETE /api/tokens/{tokenId}, and the same under /api/workspaces/{id}. */
export const tokenRoutes = (deps: Pick<AuthRouteDeps, "session" | "authLimiter">) =>
  new Elysia().use(tokenRoutesAt(deps, ADDRESSES[0])).use(tokenRoutesAt(deps, ADDRESSES[1]));
