import { eq } from "drizzle-orm";
import { step } from "@kasse/workflows";
import { authIdentity } from "./schema";

/** Input of {@link createAuthIdentityStep}: secrets arrive already hashed, in `provider_metadata`. */
export interface CreateAuthIdentityInput {
  provider: string;
  entity_id: string;
  user_metadata?: Record<string, unknown> | null;
  provider_metadata?: Record<string, unknown> | null;
}

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
    await ctx.tx.delete(authIdentity).where(eq(authIdentity.id, id));
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
