import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { errors, isKasseError } from "@kasse/core";
import type { AuthIdentity } from "../shapes";
import type { AuthProvider, IdentityStore, ProviderInput } from "./types";

/** How long a user may take at the provider's consent screen. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

/**
 * What a provider's profile maps to: the stable id at the provider, the profile kept on the
 * identity, and the email the provider says it verified (lower case; null or absent when it
 * vouches for none: such an identity cannot register a customer account).
 */
export interface OAuthProfile {
  entity_id: string;
  user_metadata: Record<string, unknown>;
  verified_email?: string | null;
}

/** Everything an OAuth 2.0 authorization-code provider needs. */
export interface OAuth2Options {
  id: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
  /** Signs `state` (the app's JWT secret). */
  stateSecret: Uint8Array | string;
  /** Maps the userinfo answer (and the access token, for extra calls) to a profile; throws `unauthorized` to refuse it. */
  profile(userinfo: Record<string, unknown>, accessToken: string, http: OAuthHttp): Promise<OAuthProfile>;
  fetch?: typeof fetch;
}

/** The endpoints a known provider has by default (`GOOGLE_DEFAULTS`, `GITHUB_DEFAULTS`). */
type Endpoints = Pick<OAuth2Options, "authorizeUrl" | "tokenUrl" | "userinfoUrl">;

/** What configures a known provider: the credentials and callback, and any of its endpoints overridden. */
export type KnownProviderOptions<Defaults extends Endpoints> = Pick<
  OAuth2Options,
  "clientId" | "clientSecret" | "callbackUrl" | "stateSecret" | "fetch"
> &
  Partial<Defaults>;

/** A known provider's options for {@link oauth2Provider}: the credentials given, each endpoint given or its default. */
export function knownProviderOptions<Defaults extends Endpoints>(
  options: KnownProviderOptions<Defaults>,
  defaults: Defaults,
) {
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    callbackUrl: options.callbackUrl,
    stateSecret: options.stateSecret,
    fetch: options.fetch,
    authorizeUrl: options.authorizeUrl ?? defaults.authorizeUrl,
    tokenUrl: options.tokenUrl ?? defaults.tokenUrl,
    userinfoUrl: options.userinfoUrl ?? defaults.userinfoUrl,
  };
}

/** A profile field that is a non-empty string, else undefined. */
export const profileText = (value: unknown): string | undefined =>
  typeof value === "string" && value ? value : undefined;

/** JSON over HTTP as the provider's calls need it. */
export interface OAuthHttp {
  getJson(url: string, accessToken: string): Promise<unknown>;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

/** The actor type a request acts as: the route puts it in the query, and the state is bound to it. */
function actorTypeOf(input: ProviderInput): string {
  const value = input.query?.actor_type;
  if (typeof value !== "string" || !value) throw errors.invalidData("An actor type is required");
  return value;
}

/**
 * A generic OAuth 2.0 authorization-code provider with PKCE (S256) and a signed, expiring,
 * single-use `state`. `authenticate` answers the provider's consent URL; `validateCallback`
 * checks the state, exchanges the code, reads the profile and creates or updates the identity.
 * `register` and `update` do not apply to OAuth and raise `invalid_data`.
 * @example
 * auth.providers.register(oauth2Provider({ id: "acme", clientId, clientSecret, callbackUrl, authorizeUrl, tokenUrl, userinfoUrl, scope: "openid email", stateSecret, profile: async (u) => ({ entity_id: String(u.sub), user_metadata: { email: u.email } }) }));
 */
export function oauth2Provider(options: OAuth2Options): AuthProvider {
  const doFetch = options.fetch ?? fetch;
  const key =
    typeof options.stateSecret === "string" ? Buffer.from(options.stateSecret) : Buffer.from(options.stateSecret);
  const sign = (payload: string) => createHmac("sha256", key).update(`oauth-state:${payload}`).digest();

  /** `payload.signature`; the payload names the nonce, provider, actor type and expiry. */
  function encodeState(claims: { n: string; p: string; a: string; e: number }): string {
    const payload = b64url(JSON.stringify(claims));
    return `${payload}.${b64url(sign(payload))}`;
  }

  function decodeState(state: string, actorType: string): { n: string } {
    const [payload, signature, extra] = state.split(".");
    const invalid = () => errors.unauthorized("Invalid OAuth state");
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = sign(payload);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let claims: { n?: unknown; p?: unknown; a?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as typeof claims;
    } catch {
      throw invalid();
    }
    if (
      typeof claims.n !== "string" ||
      claims.p !== options.id ||
      claims.a !== actorType ||
      typeof claims.e !== "number"
    )
      throw invalid();
    if (claims.e <= Date.now()) throw errors.unauthorized("The OAuth state has expired");
    return { n: claims.n };
  }

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw errors.provider(`${options.id} could not be reached`, { cause: error });
    }
  }

  const http: OAuthHttp = {
    async getJson(url, accessToken) {
      const res = await call(url, {
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "kasse" },
      });
      if (!res.ok) throw errors.unauthorized(`${options.id} refused the profile request (${res.status})`);
      return res.json();
    },
  };

  async function exchange(code: string, verifier: string): Promise<string> {
    const body = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: options.callbackUrl,
      client_id: options.clientId,
      client_secret: options.clientSecret,
      code_verifier: verifier,
    });
    const res = await call(options.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body,
    });
    const json = (await res.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!res.ok || typeof json.access_token !== "string")
      throw errors.unauthorized(`${options.id} refused the authorization code`);
    return json.access_token;
  }

  const notApplicable = (operation: string) =>
    errors.invalidData(`The ${options.id} provider does not support ${operation}: sign in through it instead`);

  return {
    id: options.id,

    async authenticate(input: ProviderInput, store: IdentityStore) {
      const actorType = actorTypeOf(input);
      const nonce = randomBytes(24).toString("base64url");
      const verifier = randomBytes(48).toString("base64url");
      await store.tokens.issue({
        kind: "oauth_state",
        secret: nonce,
        actor_type: actorType,
        provider: options.id,
        ttlMs: OAUTH_STATE_TTL_MS,
        data: { code_verifier: verifier },
      });
      const url = new URL(options.authorizeUrl);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", options.clientId);
      url.searchParams.set("redirect_uri", options.callbackUrl);
      url.searchParams.set("scope", options.scope);
      url.searchParams.set(
        "state",
        encodeState({ n: nonce, p: options.id, a: actorType, e: Date.now() + OAUTH_STATE_TTL_MS }),
      );
      url.searchParams.set("code_challenge", b64url(createHash("sha256").update(verifier).digest()));
      url.searchParams.set("code_challenge_method", "S256");
      return { location: url.toString() };
    },

    async register() {
      throw notApplicable("register");
    },

    async validateCallback(input: ProviderInput, store: IdentityStore): Promise<AuthIdentity> {
      const actorType = actorTypeOf(input);
      const { code, state } = input.query ?? {};
      if (typeof code !== "string" || !code || typeof state !== "string" || !state)
        throw errors.unauthorized("The callback needs 'code' and 'state'");
      const { n } = decodeState(state, actorType);
      const issued = await store.tokens.consume("oauth_state", n, {
        actor_type: actorType,
        provider: options.id,
      });
      if (!issued) throw errors.unauthorized("The OAuth state was already used or has expired");
      const verifier = String(issued.data.code_verifier ?? "");
      const accessToken = await exchange(code, verifier);
      const userinfo = await http.getJson(options.userinfoUrl, accessToken);
      if (!userinfo || typeof userinfo !== "object") throw errors.unauthorized(`${options.id} sent no profile`);
      const profile = await options
        .profile(userinfo as Record<string, unknown>, accessToken, http)
        .catch((error: unknown) => {
          throw isKasseError(error) ? error : errors.unauthorized(`${options.id} sent an unusable profile`);
        });
      const existing = await store.findByProvider(options.id, profile.entity_id);
      const verified_email = profile.verified_email ?? null;
      if (!existing)
        return store.create({
          provider: options.id,
          entity_id: profile.entity_id,
          user_metadata: profile.user_metadata,
          verified_email,
        });
      const entry = existing.provider_identities.find(
        (p) => p.provider === options.id && p.entity_id === profile.entity_id,
      )!;
      await store.updateProviderIdentity(entry.id, { user_metadata: profile.user_metadata, verified_email });
      return store.retrieve(existing.id);
    },

    async update() {
      throw notApplicable("update");
    },
  };
}
