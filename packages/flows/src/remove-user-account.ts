import { workflow } from "@kasse/workflows";
import { unlinkActorStep } from "@kasse/modules/auth";
import { deleteUserStep } from "@kasse/modules/user";

/**
 * Deletes an admin user and unlinks its auth identities (Medusa's `removeUserAccountWorkflow`):
 * the email and password then no longer sign anyone in as an admin, while a customer sharing
 * the identity keeps it. An unknown user is `not_found`.
 */
export const removeUserAccountWorkflow = workflow("remove-user-account", async (input: { user_id: string }, ctx) => {
  await ctx.run(deleteUserStep, input.user_id);
  await ctx.run(unlinkActorStep, { actor_type: "user", actor_id: input.user_id });
  return { id: input.user_id };
});
