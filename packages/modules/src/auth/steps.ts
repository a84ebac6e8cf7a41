import { eq } from "drizzle-orm";
import { step } from "@kasse/workflows";
import { authIdentity } from "./schema";
import { createAuthService } from "./service";

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
    const identity = await createAuthService(ctx.tx).createIdentity(input, ctx.tx);
    return { output: { id: identity.id }, compensateInput: identity.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.tx.delete(authIdentity).where(eq(authIdentity.id, id));
  },
});

/** Links an identity to its actor (`app_metadata.<actor_type>_id`); undone by unlinking. */
export const linkActorStep = step("link-auth-identity-actor", {
  invoke: async (input: { auth_identity_id: string; actor_type: string; actor_id: string }, ctx) => {
    await createAuthService(ctx.tx).linkActor(input.auth_identity_id, input.actor_type, input.actor_id, ctx.tx);
    return { output: null, compensateInput: input };
  },
  compensate: async (input, ctx) => {
    await createAuthService(ctx.tx).unlinkActor(input.auth_identity_id, input.actor_type, ctx.tx);
  },
});

/**
 * Unlinks every identity of an actor (the identity stays: it may be another actor's too, as in
 * Medusa); undone by linking them again.
 */
export const unlinkActorStep = step("unlink-auth-identity-actor", {
  invoke: async (input: { actor_type: string; actor_id: string }, ctx) => {
    const auth = createAuthService(ctx.tx);
    const ids = await auth.identityIdsOfActor(input.actor_type, input.actor_id, ctx.tx);
    for (const id of ids) await auth.unlinkActor(id, input.actor_type, ctx.tx);
    return { output: { auth_identity_ids: ids }, compensateInput: { ...input, auth_identity_ids: ids } };
  },
  compensate: async (input, ctx) => {
    const auth = createAuthService(ctx.tx);
    for (const id of input.auth_identity_ids) await auth.linkActor(id, input.actor_type, input.actor_id, ctx.tx);
  },
});

/**
 * Disables the identities of `auth_identity_ids` that are linked to no actor any more (run it after
 * {@link unlinkActorStep}): their tokens and password stop working at once. Undone by enabling them
 * again; {@link purgeIdentitiesStep} makes it final.
 */
export const disableOrphanIdentitiesStep = step("disable-orphan-auth-identities", {
  invoke: async (input: { auth_identity_ids: string[] }, ctx) => {
    const disabled = await createAuthService(ctx.tx).disableOrphans(input.auth_identity_ids, ctx.tx);
    return { output: { auth_identity_ids: disabled }, compensateInput: disabled };
  },
  compensate: async (ids: string[], ctx) => {
    await createAuthService(ctx.tx).enable(ids, ctx.tx);
  },
});

/**
 * Deletes disabled identities for real (freeing their emails to register again). It cannot be
 * undone, so a workflow runs it as its last step: nothing after it can fail and ask for it back.
 */
export const purgeIdentitiesStep = step("purge-auth-identities", {
  invoke: async (input: { auth_identity_ids: string[] }, ctx) => {
    await createAuthService(ctx.tx).purgeDisabled(input.auth_identity_ids, ctx.tx);
    return { output: null };
  },
});
