import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { errors, isKasseError, type KasseError } from "@kasse/core";
import { createTokenIssuer, type TokenClaims, type TokenIssuer } from "../auth/tokens";

/** Who is calling: set on every request by the auth plugin (null when anonymous). */
interface AuthContext {
  actor_id: string;
  actor_type: string;
  auth_identity_id: string;
  app_metadata: Record<string, unknown>;
  /** How the caller proved itself. */
  via: "jwt" | "api_key";
}

/** Resolves a secret API key token to its auth context, or null when unknown or revoked. */
export type ApiKeyVerifier = (token: string) => Promise<AuthContext | null>;

/**
 * Whether a validly signed JWT is still honoured (its identity exists, is enabled, is still linked
 * to the token's actor and has not changed its credentials since the token was signed).
 */
type SessionVerifier = (claims: TokenClaims) => Promise<boolean>;

declare module "fastify" {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Why presented credentials were refused; guards answer 401 with it. */
    authError: KasseError | null;
  }
  interface FastifyInstance {
    tokens: TokenIssuer;
    /** Route guards, used as `onRequest: app.guards.admin`. */
    guards: {
      admin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
      /**
       * An admin user signed in (a session token), not a secret API key: on the admin routes that
       * mint credentials (invites), so a key cannot make an account that outlives its revocation.
       */
      adminUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
      customer: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    };
  }
}

export interface AuthOptions {
  secret: Uint8Array;
  expiresIn: string;
  verifyApiKey?: ApiKeyVerifier;
  /** Asked on every request that carries a JWT; required, so no app can honour tokens without it. */
  verifySession: SessionVerifier;
}

/**
 * Reads credentials on every request: `Authorization: Bearer <jwt>`, or a secret API key in
 * `x-service-access-token`, `?api_token=` or `Authorization: Basic base64(<token>:)`. A JWT counts
 * only while `verifySession` says its identity still honours it, asked on every request (no cache).
 * Bad credentials do not fail public routes; guarded routes answer 401 (none or bad) or 403 (wrong actor).
 */
export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const tokens = createTokenIssuer(options.secret, options.expiresIn);
  app.decorate("tokens", tokens);
  app.decorateRequest("auth", null);
  app.decorateRequest("authError", null);

  app.addHook("onRequest", async (request) => {
    const credentials = readCredentials(request);
    if (!credentials) return;
    try {
      if (credentials.kind === "jwt") {
        const claims = await tokens.verify(credentials.token);
        if (!(await options.verifySession(claims))) throw errors.unauthorized("The session has ended: sign in again");
        const { credentials_version: _version, ...context } = claims;
        request.auth = { ...context, via: "jwt" };
      } else {
        const context = options.verifyApiKey ? await options.verifyApiKey(credentials.token) : null;
        if (!context) throw errors.unauthorized("Invalid or revoked API key");
        request.auth = context;
      }
    } catch (error) {
      // A refused credential is an answer (401 on guarded routes); a failed lookup (database down) is a 500, never a silent anonymous request.
      if (!isKasseError(error)) throw error;
      request.authError = error;
    }
  });

  const guard = (actorType: string) => async (request: FastifyRequest) => {
    const auth = request.auth;
    if (auth && auth.actor_type === actorType && auth.actor_id) return;
    if (!auth || request.authError) throw request.authError ?? errors.unauthorized("Authentication required");
    throw errors.notAllowed(`This route is not available to a ${auth.actor_type || "registering"} actor`);
  };
  const admin = guard("user");
  const adminUser = async (request: FastifyRequest) => {
    await admin(request);
    if (request.auth!.via !== "jwt")
      throw errors.notAllowed("Only an admin user signed in may do this, not an API key");
  };
  app.decorate("guards", { admin, adminUser, customer: guard("customer") });
}

type Credentials = { kind: "jwt" | "api_key"; token: string };

function readCredentials(request: FastifyRequest): Credentials | null {
  const query = request.query as Record<string, unknown> | undefined;
  const queryToken = query?.api_token;
  // A credential, not a filter: taken out so strict querystring schemas never see it.
  if (query && "api_token" in query) delete query.api_token;
  const header = request.headers.authorization;
  if (typeof header === "string") {
    const [scheme, value] = header.split(" ", 2);
    if (scheme?.toLowerCase() === "bearer" && value) return { kind: "jwt", token: value.trim() };
    if (scheme?.toLowerCase() === "basic" && value) {
      const decoded = Buffer.from(value, "base64").toString("utf8");
      const token = decoded.endsWith(":") ? decoded.slice(0, -1) : decoded.split(":")[0];
      if (token) return { kind: "api_key", token };
    }
  }
  const serviceToken = request.headers["x-service-access-token"];
  if (typeof serviceToken === "string" && serviceToken) return { kind: "api_key", token: serviceToken };
  if (typeof queryToken === "string" && queryToken) return { kind: "api_key", token: queryToken };
  return null;
}
