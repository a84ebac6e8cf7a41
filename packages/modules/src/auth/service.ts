import { errors, generateId, isKasseError } from "@kasse/core";
import { groupBy, isUniqueViolation, transaction } from "@kasse/db";
import { DEFAULT_SCRYPT, type ScryptParams } from "./password";
import { EMAILPASS, emailpassProvider, invalidCredentials } from "./providers/emailpass";
import type { AuthProvider, AuthResult, IdentityCreate, IdentityStore, ProviderInput } from "./providers/types";
import { createOneTimeTokenService } from "./one-time-tokens";
import { createMfaService, type MfaChallenge } from "./mfa";
import { authQueries as q } from "./queries";
import type { AuthIdentityRow } from "./schema";
import type { AuthIdentity, MfaChallengeBody } from "./shapes";

/** The claims a token is signed with; the auth service decides them, the API signs them. */
export interface ActorClaims {
  actor_id: string;
  actor_type: string;
  auth_identity_id: string;
  app_metadata: Record<string, unknown>;
  /** The identity's `credentials_version` when the token was signed: a later credential change ends the token. */
  credentials_version: number;
}

/** Who a token names: what {@link AuthService.refresh} and {@link AuthService.sessionAlive} look at. */
export type SessionClaims = Pick<ActorClaims, "actor_id" | "actor_type" | "auth_identity_id">;

export interface AuthServiceOptions {
  /** scrypt cost for new password hashes (emailpass); defaults to logN 15, r 8, p 1. */
  scrypt?: Partial<ScryptParams>;
  /**
   * Actor types that may hold a token before their actor exists (a registration in progress,
   * finished by creating the actor: `POST /store/customers` for customers). Others must be linked.
   */
  selfRegisteringActors?: string[];
  /** The server secret (`JWT_SECRET`), from which the key sealing MFA secrets is derived. */
  secret?: Uint8Array | string;
}

/** A sign-in's outcome: the token's claims, an MFA challenge to pass first, or (OAuth) a redirect. */
export type SignIn = { claims: ActorClaims } | { mfa_challenge: MfaChallenge };

/** The key in `app_metadata` linking an identity to its actor of one type: `user_id`, `customer_id`. */
export const actorKey = (actorType: string): string => `${actorType}_id`;

/** The actor types an identity is linked to (its `app_metadata` keys `<type>_id` naming an actor). */
export function linkedActorTypes(identity: Pick<AuthIdentity, "app_metadata">): string[] {
  return Object.entries(identity.app_metadata)
    .filter(([key, value]) => key.endsWith("_id") && typeof value === "string" && value !== "")
    .map(([key]) => key.slice(0, -"_id".length));
}

/** The id of the identity's actor of `actorType`, or "" when it has none (yet). */
export function actorIdOf(identity: Pick<AuthIdentity, "app_metadata">, actorType: string): string {
  const value = identity.app_metadata[actorKey(actorType)];
  return typeof value === "string" ? value : "";
}

/** Whether the identity has proven `email` is its holder's: one of its sign-ins has it as `verified_email`. */
export function hasProven(identity: Pick<AuthIdentity, "provider_identities">, email: string): boolean {
  return identity.provider_identities.some((p) => p.verified_email === email);
}

/**
 * The addresses an identity may register a customer account for: its emailpass login's (proven or
 * not: registration is used at once, as in Medusa) and those its OAuth providers vouch for.
 */
function ownAddresses(identity: Pick<AuthIdentity, "provider_identities">): string[] {
  return identity.provider_identities.flatMap((p) =>
    p.provider === EMAILPASS ? [p.entity_id] : p.verified_email ? [p.verified_email] : [],
  );
}

/** The claims of a token for `identity` acting as `actorType` `actorId` ("" for a registration token). */
const claimsOf = (
  identity: Pick<AuthIdentityRow, "id" | "app_metadata" | "credentials_version">,
  actorType: string,
  actorId: string,
): ActorClaims => ({
  actor_id: actorId,
  actor_type: actorType,
  auth_identity_id: identity.id,
  app_metadata: identity.app_metadata,
  credentials_version: identity.credentials_version,
});

/** The one answer to an address another account holds (registration, email change). */
const emailTaken = (email: string) => errors.conflict(`An account with email ${email} already exists`);

/**
 * Auth identities and their provider identities, and the provider registry (emailpass built
 * in; OAuth providers register themselves). Provider operations run in a transaction.
 * Built once per process; every method runs in the transaction in progress, if any.
 * @example
 * const auth = createAuthService({ scrypt: { logN: 15 } });
 * const { identity } = await auth.authenticate("emailpass", { body: { email, password } });
 */
export function createAuthService(options: AuthServiceOptions = {}) {
  const scrypt: ScryptParams = {
    logN: options.scrypt?.logN ?? DEFAULT_SCRYPT.logN,
    r: options.scrypt?.r ?? DEFAULT_SCRYPT.r,
    p: options.scrypt?.p ?? DEFAULT_SCRYPT.p,
  };
  const selfRegistering = new Set(options.selfRegisteringActors ?? ["customer"]);
  const registry = new Map<string, AuthProvider>();

  const tokens = createOneTimeTokenService();

  const withProviders = async (rows: AuthIdentityRow[]): Promise<AuthIdentity[]> => {
    if (rows.length === 0) return [];
    const providers = groupBy(await q.providersOf(rows.map((row) => row.id)), (p) => p.auth_identity_id);
    return rows.map((row) => ({ ...row, provider_identities: providers.get(row.id) ?? [] }));
  };

  /** The identity of a token's holder; one that is gone (or cannot be read) is `unauthorized`. */
  const holder = (id: string): Promise<AuthIdentity> =>
    service.retrieve(id).catch(() => {
      throw errors.unauthorized("Invalid token");
    });

  const provider = (id: string): AuthProvider => {
    const found = registry.get(id);
    if (!found) throw errors.notFound(`Auth provider ${id} is not configured`);
    return found;
  };

  // What providers work with: the service's own methods, in the transaction the caller opened.
  const store: IdentityStore = {
    findByProvider: (p, entityId) => service.findByProvider(p, entityId),
    create: (input) => service.createIdentity(input),
    updateProviderIdentity: (id, patch) => service.updateProviderIdentity(id, patch),
    retrieve: (id) => service.retrieve(id),
    tokens,
  };

  const service = {
    /** Second factors of identities (TOTP, recovery codes, sign-in challenges): `mfa.ts`. */
    mfa: createMfaService({ secret: options.secret }),

    /** Registered providers by id: `auth.providers.register(googleProvider(config))`. */
    providers: {
      register(p: AuthProvider): void {
        registry.set(p.id, p);
      },
      has: (id: string): boolean => registry.has(id),
      ids: (): string[] => [...registry.keys()],
    },

    async retrieve(id: string): Promise<AuthIdentity> {
      const [identity] = await withProviders([await q.retrieve(id)]);
      return identity!;
    },

    async findByProvider(providerId: string, entityId: string): Promise<AuthIdentity | null> {
      const found = await q.identityByProvider({ provider: providerId, entity_id: entityId });
      const [identity] = await withProviders(found.map((r) => r.identity));
      return identity ?? null;
    },

    /** Creates an identity with its first provider identity; a taken `(provider, entity_id)` is a `conflict`. */
    async createIdentity(input: IdentityCreate & { app_metadata?: Record<string, unknown> }): Promise<AuthIdentity> {
      const { app_metadata = {}, ...first } = input;
      return transaction(async () => {
        const identity = await q.insertIdentity({ id: generateId("authid"), app_metadata });
        const entry = await q.insertProviderIdentity(
          { ...first, id: generateId("provid"), auth_identity_id: identity.id },
          `An identity for ${input.provider} ${input.entity_id} already exists`,
        );
        return { ...identity, provider_identities: [entry] };
      });
    },

    updateProviderIdentity: q.updateProviderIdentity,

    /** Deletes an identity and its provider identities for real, freeing its email. */
    async delete(id: string): Promise<void> {
      if (!(await q.deleteIdentity({ id }))) throw errors.notFound(`Auth identity with id: ${id} was not found`);
    },

    /** Deletes a new identity if it is there (the compensation of its creation: gone already is fine). */
    async discard(id: string): Promise<void> {
      await q.deleteIdentity({ id });
    },

    /**
     * Links the identity to its actor of `actorType` (`app_metadata.<type>_id`). Linking to the same
     * actor again is a no-op; an identity already linked to another actor of that type is a `conflict`.
     */
    async linkActor(id: string, actorType: string, actorId: string): Promise<AuthIdentity> {
      if (!(await q.linkActor({ id, key: actorKey(actorType), actor: actorId, updated_at: new Date() }))) {
        await service.retrieve(id);
        throw errors.conflict(`Auth identity ${id} is already linked to another ${actorType}`);
      }
      return service.retrieve(id);
    },

    /** The ids of the identities linked to `actorId` as `actorType` (normally one). */
    async identityIdsOfActor(actorType: string, actorId: string): Promise<string[]> {
      return (await q.identitiesOfActor({ key: actorKey(actorType), actor: actorId })).map((r) => r.id);
    },

    /** The providers (`emailpass`, OAuth ids) `actorId` can sign in with as `actorType`, each named once. */
    async providerIdsOfActor(actorType: string, actorId: string): Promise<string[]> {
      return (await q.providerIdsOfActor({ key: actorKey(actorType), actor: actorId })).map((r) => r.provider);
    },

    /** Removes the identity's link to its actor of `actorType` (the compensation of {@link linkActor}). */
    async unlinkActor(id: string, actorType: string): Promise<void> {
      await q.unlinkActor({ id, key: actorKey(actorType), updated_at: new Date() });
    },

    /** Runs a provider's `authenticate`: the identity, or (OAuth) a redirect location. */
    authenticate: (providerId: string, input: ProviderInput): Promise<AuthResult> =>
      transaction(() => provider(providerId).authenticate(input, store)),

    /** Runs a provider's `register`: a new identity with no actor linked. */
    register: (providerId: string, input: ProviderInput): Promise<AuthIdentity> =>
      transaction(() => provider(providerId).register(input, store)),

    /** Runs a provider's `validateCallback` (OAuth). */
    validateCallback: (providerId: string, input: ProviderInput): Promise<AuthIdentity> =>
      transaction(() => provider(providerId).validateCallback(input, store)),

    /**
     * Runs a provider's `update` (emailpass: a new password) for `input.authIdentityId`, and ends
     * every token signed before it (the identity's `credentials_version` goes up in the same transaction).
     */
    update: (providerId: string, input: ProviderInput): Promise<AuthIdentity> =>
      transaction(async () => {
        const identity = await provider(providerId).update(input, store);
        await service.endSessions(identity.id);
        return service.retrieve(identity.id);
      }),

    /**
     * A signed-in identity changes its password login's password, in one transaction: the old
     * password must be right (else `invalid_data`), every token signed before ends and reset links
     * still outstanding stop working. An identity that is gone is `unauthorized`; one signing in
     * without a password `invalid_data`.
     */
    async changePassword(identityId: string, input: { old_password: string; new_password: string }): Promise<void> {
      const identity = await holder(identityId);
      const email = identity.provider_identities.find((p) => p.provider === EMAILPASS)?.entity_id;
      if (!email) throw errors.invalidData("This account signs in without a password");
      await transaction(async () => {
        const checked = await service
          .authenticate(EMAILPASS, { body: { email, password: input.old_password } })
          .catch((error: unknown) => {
            if (isKasseError(error) && error.type === "invalid_data")
              throw errors.invalidData("The old password is incorrect");
            throw error;
          });
        if (checked.identity?.id !== identityId) throw errors.invalidData("The old password is incorrect");
        await service.update(EMAILPASS, {
          body: { email, password: input.new_password },
          authIdentityId: identityId,
        });
        await tokens.revokeForIdentity("password_reset", identityId);
      });
    },

    /**
     * An operator sets a password login's password (`kasse user reset-password`: passwords are
     * stored hashed, so a lost one is replaced, never shown), in one transaction: every token
     * signed before ends and outstanding reset links stop working.
     */
    async setPassword(identityId: string, input: { email: string; password: string }): Promise<void> {
      await transaction(async () => {
        await service.update(EMAILPASS, { body: input, authIdentityId: identityId });
        await tokens.revokeForIdentity("password_reset", identityId);
      });
    },

    /**
     * Sets a new password with a password-reset token (`secret`, single use, issued for this actor
     * type and email), in one transaction: every token signed before ends and any other outstanding
     * reset link stops working. A token that is unknown, used, expired or issued for another
     * account is `unauthorized`. The token was mailed to the address, so using it proves the
     * address: see {@link proveEmailpassAddress}.
     */
    async resetPassword(secret: string, input: { actor_type: string; email: string; password: string }): Promise<void> {
      await transaction(async () => {
        const token = await tokens.consume("password_reset", secret, {
          actor_type: input.actor_type,
          provider: EMAILPASS,
          entity_id: input.email,
        });
        if (!token?.auth_identity_id) throw errors.unauthorized("Invalid or expired reset token");
        await service.update(EMAILPASS, {
          body: { email: input.email, password: input.password },
          authIdentityId: token.auth_identity_id,
        });
        await service.proveEmailpassAddress(token.auth_identity_id, input.email);
        // One reset per request: any other outstanding link stops working too.
        await tokens.revokeForIdentity("password_reset", token.auth_identity_id);
      });
    },

    /**
     * Records that the identity's emailpass address `email` is proven (a token mailed to it was
     * used). An address proven for the first time is taken over: whoever registered it without
     * proving it may not be who proves it, so the identity's pending email changes go, and so do
     * its second factors unless it is an admin's (admins are made by admins, never squatted);
     * its sessions end with the new password. Answers whether it was unproven.
     */
    async proveEmailpassAddress(identityId: string, email: string): Promise<{ taken_over: boolean }> {
      const identity = await service.retrieve(identityId);
      const entry = identity.provider_identities.find((p) => p.provider === EMAILPASS && p.entity_id === email);
      if (!entry || entry.verified_email === email) return { taken_over: false };
      await service.updateProviderIdentity(entry.id, { verified_email: email });
      if (!linkedActorTypes(identity).includes("user")) await service.mfa.removeAll(identityId);
      await tokens.revokeForIdentity("email_change", identityId);
      return { taken_over: true };
    },

    /**
     * Checks that `identityId` may register a customer account for `email` (Medusa's form: a
     * registration token, then `POST /store/customers`): the identity is live (else
     * `unauthorized`), has no customer yet (`conflict`) and `email` is one of its own addresses
     * ({@link ownAddresses}; else `not_allowed`). Answers whether it has proven that address.
     */
    async registrant(identityId: string, email: string): Promise<{ verified: boolean }> {
      const identity = await holder(identityId);
      if (actorIdOf(identity, "customer")) throw errors.conflict("This sign-in already has a customer account");
      const own = ownAddresses(identity);
      if (!own.includes(email))
        throw errors.notAllowed(
          own.length
            ? `A customer account can only be registered for the email of its sign-in: ${own.join(" or ")}`
            : "This sign-in carries no verified email to register a customer account for",
        );
      return { verified: hasProven(identity, email) };
    },

    /**
     * The unproven claims on `email` that its proof by the identity `prover.auth_identity_id` ends
     * (docs/security.md "Email ownership"): the emailpass identity registered with it and the customer account
     * holding it (`prover.holder_customer_id`, which the customer module found), when none of their
     * sign-ins proved it. Answers the customers to close and the identities to end. An address
     * proven by another sign-in, held through an OAuth provider (which vouched for it) or by an
     * admin's login is taken: `conflict`.
     */
    async unprovenClaims(
      email: string,
      prover: { auth_identity_id: string; holder_customer_id: string | null },
    ): Promise<{ customer_ids: string[]; auth_identity_ids: string[] }> {
      const login = await service.findByProvider(EMAILPASS, email);
      let holders: AuthIdentity[] = [];
      if (prover.holder_customer_id) {
        const actor = prover.holder_customer_id;
        holders = await withProviders(await q.identitiesOfActor({ key: actorKey("customer"), actor }));
      }
      // The prover's own customer holding the address is no claim against it.
      const ownHolder = holders.some((h) => h.id === prover.auth_identity_id);
      const claimants = [...(login ? [login] : []), ...(ownHolder ? [] : holders)];
      const others = [...new Map(claimants.map((c) => [c.id, c])).values()].filter(
        (c) => c.id !== prover.auth_identity_id,
      );
      for (const claimant of others) {
        const proven = hasProven(claimant, email) || claimant.provider_identities.some((p) => p.provider !== EMAILPASS);
        if (proven || linkedActorTypes(claimant).some((type) => type !== "customer")) throw emailTaken(email);
      }
      const customers = new Set(others.map((c) => actorIdOf(c, "customer")).filter(Boolean));
      if (prover.holder_customer_id && !ownHolder) customers.add(prover.holder_customer_id);
      return { customer_ids: [...customers].sort(), auth_identity_ids: others.map((c) => c.id).sort() };
    },

    /**
     * Issues the token of an email change: mailed to the new address, it lets the identity that
     * asked (signed in as `customerId`) move its account there. Only the latest request's token works.
     */
    requestEmailChange: (input: { auth_identity_id: string; customer_id: string; email: string; ttlMs: number }) =>
      tokens.issue({
        kind: "email_change",
        replace: true,
        actor_type: "customer",
        provider: EMAILPASS,
        ttlMs: input.ttlMs,
        auth_identity_id: input.auth_identity_id,
        entity_id: input.email,
        data: { customer_id: input.customer_id },
      }),

    /**
     * Uses an email change token (`secret`) of this identity and customer: the new address. A token
     * that is unknown, used, expired, replaced or another's is `invalid_data` and stays as it was.
     */
    async claimEmailChange(
      secret: string,
      owner: { auth_identity_id: string; customer_id: string },
    ): Promise<{ token_id: string; email: string }> {
      return transaction(async () => {
        const token = await tokens.consume("email_change", secret, {
          auth_identity_id: owner.auth_identity_id,
        });
        if (!token?.entity_id || token.data.customer_id !== owner.customer_id)
          throw errors.invalidData("The email change token is invalid, used or expired: ask for a new one");
        return { token_id: token.id, email: token.entity_id };
      });
    },

    /**
     * Moves the emailpass login of `customerId`'s identities to `email`, proven (a confirmed email
     * change), and voids their outstanding reset and email change links. An address another login
     * holds is `conflict`. A customer signing in through OAuth only has no login to move.
     */
    async moveEmailpassAddress(customerId: string, email: string): Promise<void> {
      const ids = await service.identityIdsOfActor("customer", customerId);
      if (ids.length === 0) return;
      await transaction(async () => {
        await q.moveLogin({ ids, provider: EMAILPASS, email, updated_at: new Date() }).catch((error: unknown) => {
          throw isUniqueViolation(error) ? emailTaken(email) : error;
        });
        for (const id of ids) {
          await tokens.revokeForIdentity("password_reset", id);
          await tokens.revokeForIdentity("email_change", id);
        }
      });
    },

    /** Ends every token of the identity issued so far (its `credentials_version` goes up by one). */
    async endSessions(id: string): Promise<void> {
      await q.endSessions({ id, updated_at: new Date() });
    },

    /**
     * Whether a signed token may still be honoured: its identity exists and is not disabled, its
     * credentials have not changed since it was signed, and (for an actor's token) the identity is
     * still linked to that actor. One primary-key read, no cache: a deletion or password change is
     * in force for every process as soon as it has committed.
     */
    async sessionAlive(claims: SessionClaims & Pick<ActorClaims, "credentials_version">): Promise<boolean> {
      const live = { id: claims.auth_identity_id, version: claims.credentials_version };
      const found =
        claims.actor_id === ""
          ? await q.aliveIdentity(live)
          : await q.aliveLinkedIdentity({ ...live, key: actorKey(claims.actor_type), actor: claims.actor_id });
      return found !== undefined;
    },

    /**
     * Disables those of `ids` that are linked to no actor any more (their tokens and password stop
     * working at once); identities still linked to another actor are left alone. Returns the
     * disabled ids. Undone by {@link enable}; made final by {@link purgeDisabled}.
     */
    async disableOrphans(ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      // Locked so a concurrent link (registration with this identity) either lands first and keeps it, or fails after.
      const rows = await q.lockLiveIdentities({ ids });
      const orphans = rows.filter((row) => linkedActorTypes(row).length === 0).map((row) => row.id);
      if (orphans.length) {
        const at = new Date();
        await q.setIdentitiesDeleted({ ids: orphans, deleted_at: at, at });
      }
      return orphans;
    },

    /** Re-enables disabled identities (the compensation of {@link disableOrphans}). */
    async enable(ids: string[]): Promise<void> {
      if (ids.length) await q.setIdentitiesDeleted({ ids, deleted_at: null, at: new Date() });
    },

    /**
     * Deletes disabled identities for real, with their provider identities and outstanding
     * one-time tokens, so their emails are free to register again. Not undoable.
     */
    async purgeDisabled(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      const purged = (await q.purgeDisabled({ ids })).map((row) => row.id);
      if (purged.length) await q.deleteTokensOf({ ids: purged });
    },

    /**
     * The claims of a token for `identity` acting as `actorType`. An identity with no actor of
     * that type gets a registration token (`actor_id` "") only for self-registering actor types;
     * otherwise the sign-in fails exactly like a wrong password.
     */
    claimsFor(identity: AuthIdentity, actorType: string): ActorClaims {
      const actorId = actorIdOf(identity, actorType);
      if (!actorId && !selfRegistering.has(actorType)) throw invalidCredentials();
      return claimsOf(identity, actorType, actorId);
    },

    /**
     * What a sign-in of `identity` as `actorType` gets: the token's claims, or, when the identity
     * has an enabled second factor, a challenge to pass first ({@link completeMfaChallenge}).
     */
    async signIn(identity: AuthIdentity, actorType: string, providerId: string): Promise<SignIn> {
      const claims = service.claimsFor(identity, actorType);
      const challenge = await service.mfa.openChallenge(identity.id, actorType, providerId);
      return challenge ? { mfa_challenge: challenge } : { claims };
    },

    /** Signs in with a provider as `actorType`: the token claims, an MFA challenge, or (OAuth) a redirect location. */
    async login(actorType: string, providerId: string, input: ProviderInput): Promise<SignIn | { location: string }> {
      const result = await service.authenticate(providerId, input);
      if (result.location !== undefined) return { location: result.location };
      return service.signIn(result.identity, actorType, providerId);
    },

    /**
     * Passes a sign-in's MFA challenge with a code: the claims of the token the sign-in was waiting
     * for, from the identity as it is now (one deleted meanwhile is `unauthorized`).
     */
    async completeMfaChallenge(challengeId: string, input: MfaChallengeBody): Promise<ActorClaims> {
      const passed = await service.mfa.completeChallenge(challengeId, input);
      const identity = await holder(passed.auth_identity_id);
      return service.claimsFor(identity, passed.actor_type);
    },

    /** Registers a new identity: claims of a registration token (`actor_id` ""). */
    async registerActor(actorType: string, providerId: string, input: ProviderInput): Promise<ActorClaims> {
      const identity = await service.register(providerId, input);
      return claimsOf(identity, actorType, "");
    },

    /**
     * Fresh claims for a token's holder from the identity as it is now (a registration token
     * becomes an actor's token once the actor is linked). A deleted identity or a lost actor is `unauthorized`.
     */
    async refresh(current: SessionClaims): Promise<ActorClaims> {
      const identity = await service.retrieve(current.auth_identity_id).catch((error: unknown) => {
        throw (error as { type?: string }).type === "not_found" ? errors.unauthorized("Invalid token") : error;
      });
      const actorId = actorIdOf(identity, current.actor_type);
      if (current.actor_id && actorId !== current.actor_id) throw errors.unauthorized("Invalid token");
      return claimsOf(identity, current.actor_type, actorId);
    },
  };

  service.providers.register(emailpassProvider(scrypt));
  return service;
}

export type AuthService = ReturnType<typeof createAuthService>;
