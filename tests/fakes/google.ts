// A fake Google OAuth 2.0 / OpenID provider speaking the real wire protocol: authorization endpoint
// (redirects straight back with a code), token endpoint (client secret via HTTP Basic, PKCE S256 checked),
// and userinfo (Bearer access token).
import { createHash, randomUUID } from "node:crypto";
import { serveOnLoopback } from "./loopback.ts";

export type FakeGoogleProfile = {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  picture?: string;
};

export type FakeGoogle = {
  url: string;
  env: Record<string, string>;
  /** The profile the next authorization will sign in as. */
  signInAs: (profile: FakeGoogleProfile) => void;
  tokenRequests: number;
  stop: () => void;
};

/** A browser carrying this cookie (the `sub` of an account posted to /__test/sign-in-as) signs in as that account. */
export const ACCOUNT_COOKIE = "fake-google-account";

const base64url = (buffer: Buffer) =>
  buffer.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function startFakeGoogle(clientId = "fake-client-id", clientSecret = "fake-client-secret"): FakeGoogle {
  let profile: FakeGoogleProfile | null = null;
  // Browser tests in parallel workers each say which account their browser signs in as (ACCOUNT_COOKIE), so that
  // one worker's sign-in never takes the account another worker has just named.
  const accounts = new Map<string, FakeGoogleProfile>();
  const codes = new Map<string, { challenge: string; redirectUri: string; profile: FakeGoogleProfile }>();
  const accessTokens = new Map<string, FakeGoogleProfile>();
  const oauthError = (error: string, status = 400) => Response.json({ error }, { status });

  const fake: FakeGoogle = {
    url: "",
    env: {},
    signInAs: (next) => (profile = next),
    tokenRequests: 0,
    stop: () => loopback.stop(),
  };

  const loopback = serveOnLoopback(async (request) => {
    const url = new URL(request.url);
    // Test control: which Google account the next sign-in uses (browser tests run in another process).
    if (url.pathname === "/__test/sign-in-as" && request.method === "POST") {
      profile = (await request.json()) as FakeGoogleProfile;
      accounts.set(profile.sub, profile);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/authorize") {
      const q = url.searchParams;
      if (q.get("response_type") !== "code" || q.get("client_id") !== clientId) return oauthError("invalid_request");
      if (q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("state"))
        return oauthError("invalid_request");
      if (!q.get("scope")?.split(" ").includes("openid")) return oauthError("invalid_scope");
      const named = new Bun.CookieMap(request.headers.get("cookie") ?? "").get(ACCOUNT_COOKIE);
      const who = (named === null ? null : accounts.get(named)) ?? profile;
      if (!who) return oauthError("access_denied");
      const code = randomUUID();
      codes.set(code, { challenge: q.get("code_challenge")!, redirectUri: q.get("redirect_uri")!, profile: who });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state")!);
      return Response.redirect(back.toString(), 302);
    }
    if (url.pathname === "/token" && request.method === "POST") {
      fake.tokenRequests++;
      const expected = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;
      if (request.headers.get("authorization") !== expected) return oauthError("invalid_client", 401);
      const form = new URLSearchParams(await request.text());
      const grant = codes.get(form.get("code") ?? "");
      if (form.get("grant_type") !== "authorization_code" || !grant) return oauthError("invalid_grant");
      codes.delete(form.get("code")!);
      if (form.get("redirect_uri") !== grant.redirectUri) return oauthError("invalid_grant");
      const verifier = form.get("code_verifier") ?? "";
      if (base64url(createHash("sha256").update(verifier).digest()) !== grant.challenge)
        return oauthError("invalid_grant");
      const accessToken = randomUUID();
      accessTokens.set(accessToken, grant.profile);
      const idToken = [{ alg: "none" }, { sub: grant.profile.sub, email: grant.profile.email, aud: clientId }]
        .map((part) => base64url(Buffer.from(JSON.stringify(part))))
        .join(".");
      return Response.json({
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: 3599,
        scope: "openid email profile",
        id_token: `${idToken}.`,
      });
    }
    if (url.pathname === "/userinfo") {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
      const who = accessTokens.get(token);
      return who ? Response.json(who) : oauthError("invalid_token", 401);
    }
    return new Response("not found", { status: 404 });
  });
  fake.url = loopback.url;
  fake.env = {
    GOOGLE_CLIENT_ID: clientId,
    GOOGLE_CLIENT_SECRET: clientSecret,
    GOOGLE_AUTH_URL: `${fake.url}/authorize`,
    GOOGLE_TOKEN_URL: `${fake.url}/token`,
    GOOGLE_USERINFO_URL: `${fake.url}/userinfo`,
  };
  return fake;
}
