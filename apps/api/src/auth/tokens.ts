import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { errors } from "@kasse/db";

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
   * Verifies signature (HS256 only, so `alg: none` fails), expiry and shape; throws `unauthorized`.
   * Whether the token's identity still honours it is the auth plugin's check, not this one.
   */
  verify(token: string): Promise<TokenClaims>;
}

/**
 * Signs and verifies Kasse's JWTs with one HS256 secret.
 * @example
 * const tokens = createTokenIssuer(secret, "24h");
 * const jwt = await tokens.sign({ actor_id: "user_1", actor_type: "user", auth_identity_id: "authid_1", app_metadata: {}, credentials_version: 1 });
 */
export function createTokenIssuer(secret: Uint8Array, expiresIn: string): TokenIssuer {
  return {
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(secret),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"], requiredClaims: ["exp"] });
        // A token without a credentials version predates the check (or is not a session token): refused.
        if (typeof payload.actor_type !== "string" || typeof payload.auth_identity_id !== "string" || !Number.isSafeInteger(payload.credentials_version)) {
          throw errors.unauthorized("Invalid token");
        }
        return {
          actor_id: typeof payload.actor_id === "string" ? payload.actor_id : "",
          actor_type: payload.actor_type,
          auth_identity_id: payload.auth_identity_id,
          app_metadata: (payload.app_metadata as Record<string, unknown> | undefined) ?? {},
          credentials_version: payload.credentials_version as number,
        };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw errors.unauthorized("Token expired");
        throw errors.unauthorized("Invalid token");
      }
    },
  };
}
