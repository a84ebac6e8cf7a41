import { workflow } from "./definitions";
import { linkActorStep } from "@kasse/modules/auth";
import { claimInviteStep, createUserStep } from "@kasse/modules/user";

/** What the workflow journals: ids and names only (the invite's secret never enters it). */
export interface AcceptInviteInput {
  invite_id: string;
  /** The identity of the registration token that accepts (from `POST /auth/user/emailpass/register`). */
  auth_identity_id: string;
  first_name: string | null;
  last_name: string | null;
}

/**
 * Accepts an invite (Medusa's `acceptInviteWorkflow`): uses the invite up, creates the admin user
 * with the invite's email and links the accepting identity to it. An invite already used or
 * expired is `unauthorized`; a taken email or an identity already linked to a user is `conflict`,
 * and whatever was done is undone (the invite can be accepted again).
 */
export const acceptInviteWorkflow = workflow("accept-invite", async (input: AcceptInviteInput, ctx) => {
  const invite = await ctx.run(claimInviteStep, input.invite_id);
  const user = await ctx.run(createUserStep, {
    email: invite.email,
    first_name: input.first_name,
    last_name: input.last_name,
  });
  await ctx.run(linkActorStep, { auth_identity_id: input.auth_identity_id, actor_type: "user", actor_id: user.id });
  return { user_id: user.id };
});
