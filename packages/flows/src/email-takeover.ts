import type { FlowContext } from "./definitions";
import { disableOrphanIdentitiesStep, unlinkActorStep, unprovenClaimsStep } from "@kasse/modules/auth";
import { accountByEmailStep, closeCustomersStep } from "@kasse/modules/customer";

/**
 * Ends the unproven claims on `email` that its proof by `auth_identity_id` overrides (docs/security.md
 * "Email ownership"): each customer account holding it with no sign-in that proved it is closed
 * (deleted with its addresses, unlinked from its identities), and each identity registered with it
 * unproven is disabled (its password and tokens stop working). Answers the disabled identities: the
 * workflow deletes them in its last step (`purgeIdentitiesStep` or `takeEmailpassAddressStep`, not
 * undoable), which frees the address. An address a proven or admin sign-in holds is `conflict`
 * before anything changed.
 */
export async function endUnprovenClaims(
  ctx: FlowContext,
  input: { email: string; auth_identity_id: string },
): Promise<string[]> {
  const holder = await ctx.run(accountByEmailStep, { email: input.email });
  const claims = await ctx.run(unprovenClaimsStep, {
    email: input.email,
    auth_identity_id: input.auth_identity_id,
    holder_customer_id: holder?.id ?? null,
  });
  if (claims.auth_identity_ids.length === 0 && claims.customer_ids.length === 0) return [];
  await ctx.run(closeCustomersStep, { customer_ids: claims.customer_ids });
  for (const customerId of claims.customer_ids)
    await ctx.run(unlinkActorStep, { actor_type: "customer", actor_id: customerId });
  const disabled = await ctx.run(disableOrphanIdentitiesStep, { auth_identity_ids: claims.auth_identity_ids });
  return disabled.auth_identity_ids;
}
