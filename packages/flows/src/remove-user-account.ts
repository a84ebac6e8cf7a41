import { workflow } from "./definitions";
import { disableOrphanIdentitiesStep, purgeIdentitiesStep, unlinkActorStep } from "@kasse/modules/auth";
import { deleteUserStep } from "@kasse/modules/user";

/**
 * Deletes an admin user and unlinks its auth identities (Medusa's `removeUserAccountWorkflow`).
 * An identity left with no actor is disabled and then deleted, so its tokens, its password and
 * its email stop working as soon as this answers; a customer sharing the identity keeps it (only
 * the user's tokens end). An unknown user is `not_found`.
 */
export const removeUserAccountWorkflow = workflow("remove-user-account", async (input: { user_id: string }, ctx) => {
  await ctx.run(deleteUserStep, input.user_id);
  const { auth_identity_ids } = await ctx.run(unlinkActorStep, { actor_type: "user", actor_id: input.user_id });
  const disabled = await ctx.run(disableOrphanIdentitiesStep, { auth_identity_ids });
  // Last: deleting an identity cannot be undone.
  await ctx.run(purgeIdentitiesStep, disabled);
  return { id: input.user_id };
});
