import { eq } from "drizzle-orm";
import { errors } from "@kasse/core";
import { step } from "@kasse/workflows";
import { customer, type CustomerCreate } from "./schema";

/** Input of {@link createCustomerStep}: the customer fields and who creates it. */
export interface CreateCustomerStepInput {
  customer: CustomerCreate;
  has_account: boolean;
  created_by?: string | null;
}

/**
 * Creates a customer; undone by removing the row (nobody else has seen it yet). A live customer
 * with the same email and account kind is `conflict`.
 */
export const createCustomerStep = step("create-customer", {
  invoke: async (input: CreateCustomerStepInput, ctx) => {
    const created = await ctx.modules.customer.create(input.customer, {
      has_account: input.has_account,
      created_by: input.created_by ?? null,
    });
    await ctx.emit("customer.created", { id: created.id, email: created.email, has_account: created.has_account });
    return { output: { id: created.id, email: created.email }, compensateInput: created.id };
  },
  compensate: async (id: string, ctx) => {
    await ctx.tx.delete(customer).where(eq(customer.id, id));
  },
});

/** Soft-deletes a customer and its addresses; undone by restoring what that deletion removed. */
export const deleteCustomerStep = step("delete-customer", {
  invoke: async (id: string, ctx) => {
    const deletedAt = await ctx.modules.customer.delete(id);
    return { output: null, compensateInput: { id, deleted_at: deletedAt.toISOString() } };
  },
  compensate: async (input: { id: string; deleted_at: string }, ctx) => {
    await ctx.modules.customer.restore(input.id, new Date(input.deleted_at));
  },
});

/**
 * Checks that a customer is registered (`has_account`), as an order can only be transferred to
 * one: 404 for an unknown customer, 400 for a guest record. Reads only: nothing to undo.
 */
export const registeredCustomerStep = step("registered-customer", {
  invoke: async (input: { customer_id: string; purpose: string }, ctx) => {
    const found = await ctx.modules.customer.retrieve(input.customer_id);
    if (!found.has_account)
      throw errors.invalidData(`Cannot ${input.purpose} to a guest customer account: ${found.email}`);
    return { output: { id: found.id, email: found.email } };
  },
});
