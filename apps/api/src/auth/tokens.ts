import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { errors } from "@kasse/core";

/** The claims Kasse puts in every token. */
export interface TokenClaims {
  actor_id: string;
  actor_type: string;
  auth_identity_id: string;
  app_metadata: Record<string, unknown>;
  /** The identity's credentials version at signing; the auth plugin refuses the token once it changed. */
  credentials_version: number;
}

export interface TokenIssuer {
  sign(claims: TokenClaims): Promise<string>;
  /**
   * The token a sign-in waiting for its second factor answers with (Medusa's SDK requires one
   * beside the challenge): it names the challenge and no session, so {@link verify} refuses it and
   * no route honours it; only the challenge's code leads to a session token.
   */
  signMfaPending(challenge: { id: string; actor_type: string; expires_at: Date }): Promise<string>;
  /**
   * Verifies signature (HS256 only, so `alg: none` fails), expiry and shape; throws `unauthorized`.
   * Whether the token's identity still honours it is the auth plugin's check, not this one.
   */
  verify(token: string): Promise<TokenClaims>;
}

/** Tokens whose signature this process has checked, kept until they expire: an admin or customer sends the same one with every request. */
const VERIFIED_TOKENS = 1000;

/**
 * Signs and verifies Kasse's JWTs with one HS256 secret. A token verified once is not verified
 * again until it expires (WebCrypto's HMAC was a twentieth of an admin request's CPU): the token
 * string includes its signature, so only that exact token is recognised.
 * @example
 * const tokens = createTokenIssuer(secret, "24h");
 * const jwt = await tokens.sign({ actor_id: "user_1", actor_type: "user", auth_identity_id: "authid_1", app_metadata: {}, credentials_version: 1 });
 */
export function createTokenIssuer(secret: Uint8Array, expiresIn: string): TokenIssuer {
  const verified = new Map<string, { claims: TokenClaims; expiresAt: number }>();
  const remember = (token: string, claims: TokenClaims, exp: number) => {
    if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
    verified.set(token, { claims, expiresAt: exp * 1000 });
  };
  return {
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(secret),
    signMfaPending: (challenge) =>
      new SignJWT({ mfa_challenge_id: challenge.id, actor_type: challenge.actor_type, actor_id: "" })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt()
        .setExpirationTime(Math.floor(challenge.expires_at.getTime() / 1000))
        .sign(secret),
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose's rule: a token is expired from its `exp` second on.
        if (known.expiresAt > Date.now()) return { ...known.claims };
        verified.delete(token);
        throw errors.unauthorized("Token expired");
      }
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"], requiredClaims: ["exp"] });
        // A token without a credentials version predates the check (or is not a session token, as
        // a sign-in's MFA-pending token): refused.
        if (
          payload.mfa_challenge_id !== undefined ||
          typeof payload.actor_type !== "string" ||
          typeof payload.auth_identity_id !== "string" ||
          !Number.isSafeInteger(payload.credentials_version)
        ) {
          throw errors.unauthorized("Invalid token");
        }
        const claims: TokenClaims = {
          actor_id: typeof payload.actor_id === "string" ? payload.actor_id : "",
          actor_type: payload.actor_type,
          auth_identity_id: payload.auth_identity_id,
          app_metadata: (payload.app_metadata as Record<string, unknown> | undefined) ?? {},
          credentials_version: payload.credentials_version as number,
        };
        remember(token, claims, payload.exp!);
        return { ...claims };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw errors.unauthorized("Token expired");
        throw errors.unauthorized("Invalid token");
      }
    },
  };
}
