import { workflow } from "./definitions";
import { disableOrphanIdentitiesStep, purgeIdentitiesStep, unlinkActorStep } from "@kasse/modules/auth";
import { deleteCustomerStep } from "@kasse/modules/customer";

/**
 * Deletes a customer (with its addresses) and unlinks its auth identities, as Medusa's
 * `removeCustomerAccountWorkflow` does; an identity left with no actor is disabled and then
 * deleted, so the customer's tokens and password stop working as soon as this answers and the
 * email may register again. An identity an admin user shares stays (only the customer's tokens
 * end). Any failure before the last step restores the customer and the identities. An unknown
 * customer is `not_found`.
 */
export const removeCustomerAccountWorkflow = workflow(
  "remove-customer-account",
  async (input: { customer_id: string }, ctx) => {
    await ctx.run(deleteCustomerStep, input.customer_id);
    const { auth_identity_ids } = await ctx.run(unlinkActorStep, {
      actor_type: "customer",
      actor_id: input.customer_id,
    });
    const disabled = await ctx.run(disableOrphanIdentitiesStep, { auth_identity_ids });
    // Last: deleting an identity cannot be undone.
    await ctx.run(purgeIdentitiesStep, disabled);
    return { id: input.customer_id };
  },
);
