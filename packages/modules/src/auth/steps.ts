import { definitions } from "@kasse/workflows";
import type { AuthService } from "./service";
import type { OneTimeTokenService } from "./one-time-tokens";
import type { IdentityCreate } from "./providers/types";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { auth: AuthService; authTokens: OneTimeTokenService };

const { step } = definitions<StepModules>();

/** Input of {@link createAuthIdentityStep}: secrets arrive already hashed, in `provider_metadata`. */
export type CreateAuthIdentityInput = Omit<IdentityCreate, "verified_email">;

/**
 * Creates an auth identity with one provider identity; undone by deleting it. A taken email is
 * `conflict`. `provider_metadata` (the password hash) is secret: kept out of journaled errors.
 */
export const createAuthIdentityStep = step("create-auth-identity", {
  secret: { input: ["provider_metadata"] },
  invoke: async (input: CreateAuthIdentityInput, ctx) => {
    const identity = await ctx.modules.auth.createIdentity(input);
    return { output: { id: identity.id }, compensateInput: identity.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.modules.auth.discard(id);
  },
});

/** Links an identity to its actor (`app_metadata.<actor_type>_id`); undone by unlinking. */
export const linkActorStep = step("link-auth-identity-actor", {
  invoke: async (input: { auth_identity_id: string; actor_type: string; actor_id: string }, ctx) => {
    await ctx.modules.auth.linkActor(input.auth_identity_id, input.actor_type, input.actor_id);
    return { output: null, compensateInput: input };
  },
  compensate: async (input, ctx) => {
    await ctx.modules.auth.unlinkActor(input.auth_identity_id, input.actor_type);
  },
});

/**
 * Unlinks every identity of an actor (the identity stays: it may be another actor's too, as in
 * Medusa); undone by linking them again.
 */
export const unlinkActorStep = step("unlink-auth-identity-actor", {
  invoke: async (input: { actor_type: string; actor_id: string }, ctx) => {
    const auth = ctx.modules.auth;
    const ids = await auth.identityIdsOfActor(input.actor_type, input.actor_id);
    for (const id of ids) await auth.unlinkActor(id, input.actor_type);
    return { output: { auth_identity_ids: ids }, compensateInput: { ...input, auth_identity_ids: ids } };
  },
  compensate: async (input, ctx) => {
    const auth = ctx.modules.auth;
    for (const id of input.auth_identity_ids) await auth.linkActor(id, input.actor_type, input.actor_id);
  },
});

/**
 * Disables the identities of `auth_identity_ids` that are linked to no actor any more (run it after
 * {@link unlinkActorStep}): their tokens and password stop working at once. Undone by enabling them
 * again; {@link purgeIdentitiesStep} makes it final.
 */
export const disableOrphanIdentitiesStep = step("disable-orphan-auth-identities", {
  invoke: async (input: { auth_identity_ids: string[] }, ctx) => {
    const disabled = await ctx.modules.auth.disableOrphans(input.auth_identity_ids);
    return { output: { auth_identity_ids: disabled }, compensateInput: disabled };
  },
  compensate: async (ids: string[], ctx) => {
    await ctx.modules.auth.enable(ids);
  },
});

/**
 * Deletes disabled identities for real (freeing their emails to register again). It cannot be
 * undone, so a workflow runs it as its last step: nothing after it can fail and ask for it back.
 */
export const purgeIdentitiesStep = step("purge-auth-identities", {
  invoke: async (input: { auth_identity_ids: string[] }, ctx) => {
    await ctx.modules.auth.purgeDisabled(input.auth_identity_ids);
    return { output: null };
  },
});

/**
 * Checks that a registration token's identity may register a customer for `email` (its own
 * address, no customer yet: `auth.registrant`) and answers whether it has proven that address.
 * Reads only: nothing to undo.
 */
export const registrantStep = step("check-registrant", {
  invoke: async (input: { auth_identity_id: string; email: string }, ctx) => ({
    output: await ctx.modules.auth.registrant(input.auth_identity_id, input.email),
  }),
});

/**
 * The unproven claims on `email` a proof of it by `auth_identity_id` ends (`auth.unprovenClaims`):
 * the customers to close and the identities to end; `conflict` when a proven or admin sign-in
 * holds the address. Reads only: nothing to undo.
 */
export const unprovenClaimsStep = step("find-unproven-email-claims", {
  invoke: async (input: { email: string; auth_identity_id: string; holder_customer_id: string | null }, ctx) => ({
    output: await ctx.modules.auth.unprovenClaims(input.email, input),
  }),
});

/**
 * Uses an email change token of the signed-in identity and customer (`auth.claimEmailChange`):
 * the new address. Undone by making the token usable again, so the customer can retry.
 */
export const claimEmailChangeStep = step("claim-email-change", {
  secret: { input: ["token"] },
  invoke: async (input: { token: string; auth_identity_id: string; customer_id: string }, ctx) => {
    const claimed = await ctx.modules.auth.claimEmailChange(input.token, input);
    return { output: { email: claimed.email }, compensateInput: claimed.token_id };
  },
  compensate: async (tokenId: string, ctx) => {
    await ctx.modules.authTokens.release(tokenId);
  },
});

/**
 * Ends the identities a takeover disabled (deleted for real, freeing the address) and moves the
 * customer's emailpass login to `email`, proven, in one transaction. Not undoable: a workflow
 * runs it last.
 */
export const takeEmailpassAddressStep = step("take-emailpass-address", {
  invoke: async (input: { customer_id: string; email: string; purge_auth_identity_ids: string[] }, ctx) => {
    await ctx.modules.auth.purgeDisabled(input.purge_auth_identity_ids);
    await ctx.modules.auth.moveEmailpassAddress(input.customer_id, input.email);
    return { output: null };
  },
});
