import type { OneTimeTokenService } from "../one-time-tokens";
import type { ProviderIdentityFields, ProviderIdentityRow } from "../schema";
import type { AuthIdentity } from "../shapes";

/** What a provider operation receives from the HTTP layer. */
export interface ProviderInput {
  /** The request body (emailpass: `{email, password}`). */
  body: Record<string, unknown>;
  /** The query string (OAuth callbacks: `{code, state}`). */
  query?: Record<string, unknown>;
  /** The identity the caller is authenticated as (required by `update`). */
  authIdentityId?: string;
  /** Where an OAuth provider sends the user back to (overrides the configured callback URL). */
  callbackUrl?: string;
}

/** What `authenticate` answers: the signed-in identity, or (OAuth) where to send the browser. */
export type AuthResult = { identity: AuthIdentity; location?: undefined } | { identity?: undefined; location: string };

/** A new identity's first provider identity: who signs in, with which provider. */
export type IdentityCreate = Pick<ProviderIdentityRow, "provider" | "entity_id"> & ProviderIdentityFields;

/** The identity storage a provider works with, already bound to the caller's transaction (its one-time tokens too). */
export interface IdentityStore {
  /** The identity owning `(provider, entity_id)`, with its provider identities, or null. */
  findByProvider(provider: string, entityId: string): Promise<AuthIdentity | null>;
  /** Creates an identity with its first provider identity; `(provider, entity_id)` taken → `conflict`. */
  create(input: IdentityCreate): Promise<AuthIdentity>;
  /** Replaces the fields of a provider identity that are given (its metadata, the email it proved). */
  updateProviderIdentity(id: string, patch: ProviderIdentityFields): Promise<ProviderIdentityRow>;
  retrieve(id: string): Promise<AuthIdentity>;
  /** One-time tokens (an OAuth sign-in's `state`), in the same transaction. */
  tokens: Pick<OneTimeTokenService, "issue" | "consume">;
}

/**
 * An authentication provider (contract: "Provider operations"). Every operation exists on every
 * provider; one that does not apply throws `invalid_data` (emailpass has no callback, OAuth no
 * register or update). Failures are thrown as catalog errors, never returned.
 */
export interface AuthProvider {
  /** The provider's id as used in routes and in `provider_identity.provider`: `emailpass`, `google`, ... */
  readonly id: string;
  authenticate(input: ProviderInput, store: IdentityStore): Promise<AuthResult>;
  register(input: ProviderInput, store: IdentityStore): Promise<AuthIdentity>;
  validateCallback(input: ProviderInput, store: IdentityStore): Promise<AuthIdentity>;
  update(input: ProviderInput, store: IdentityStore): Promise<AuthIdentity>;
}
