// Google sign-in through arctic's generic OAuth2 client, every endpoint from config (tests use a fake).
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from "arctic";
import { z } from "zod";
import type { Config } from "../config/config.ts";
import type { Profile } from "./users.ts";

const UserInfo = z.object({
  sub: z.string().min(1),
  email: z.email(),
  email_verified: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  picture: z.url().optional(),
});

export type GoogleSignIn = {
  start: () => { url: URL; state: string; codeVerifier: string };
  /** Exchanges the code and reads the profile; null when Google says the e-mail is not verified. */
  finish: (code: string, codeVerifier: string) => Promise<Profile | null>;
};

export function createGoogleSignIn(google: NonNullable<Config["google"]>, publicUrl: string): GoogleSignIn {
  const client = new OAuth2Client(google.clientId, google.clientSecret, `${publicUrl}/api/auth/google/callback`);
  return {
    start() {
      const state = generateState();
      const codeVerifier = generateCodeVerifier();
      const url = client.createAuthorizationURLWithPKCE(google.authUrl, state, CodeChallengeMethod.S256, codeVerifier, [
        "openid",
        "email",
        "profile",
      ]);
      return { url, state, codeVerifier };
    },
    async finish(code, codeVerifier) {
      const tokens = await client.validateAuthorizationCode(google.tokenUrl, code, codeVerifier);
      const response = await fetch(google.userinfoUrl, {
        headers: { Authorization: `Bearer ${tokens.accessToken()}` },
      });
      if (!response.ok) throw new Error(`userinfo answered ${response.status}`);
      const info = UserInfo.parse(await response.json());
      if (info.email_verified !== true) return null;
      return {
        googleSub: info.sub,
        email: info.email,
        firstName: info.given_name ?? null,
        lastName: info.family_name ?? null,
        profileImageUrl: info.picture ?? null,
      };
    },
  };
}
