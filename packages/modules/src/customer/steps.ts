import { errors } from "@kasse/core";
import { definitions } from "@kasse/workflows";
import type { CustomerCreate } from "./shapes";
import type { CustomerService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { customer: CustomerService };

const { step } = definitions<StepModules>();

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
    await ctx.modules.customer.remove(id);
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

/** The live registered customer holding `email`, or null. Reads only: nothing to undo. */
export const accountByEmailStep = step("find-customer-account-by-email", {
  invoke: async (input: { email: string }, ctx) => {
    const found = await ctx.modules.customer.findAccountByEmail(input.email);
    return { output: found ? { id: found.id } : null };
  },
});

/**
 * Sets a registered customer's email to an address they proved (`customer.changeEmail`), with its
 * `customer.updated` event when it changed; undone by setting the previous address back.
 */
export const setCustomerEmailStep = step("set-customer-email", {
  invoke: async (input: { customer_id: string; email: string }, ctx) => {
    const { previous } = await ctx.modules.customer.changeEmail(input.customer_id, input.email);
    if (previous !== input.email) await ctx.emit("customer.updated", { id: input.customer_id, fields: ["email"] });
    return { output: { previous }, compensateInput: { customer_id: input.customer_id, email: previous } };
  },
  compensate: async (input: { customer_id: string; email: string }, ctx) => {
    await ctx.modules.customer.changeEmail(input.customer_id, input.email);
  },
});

/**
 * Closes customer accounts (a takeover of their address): soft-deletes those of `customer_ids`
 * that are live, with their addresses. Undone by restoring what it deleted.
 */
export const closeCustomersStep = step("close-customers", {
  invoke: async (input: { customer_ids: string[] }, ctx) => {
    const customer = ctx.modules.customer;
    const ids = input.customer_ids;
    const { items } = ids.length ? await customer.list({ id: ids }, { limit: ids.length, offset: 0 }) : { items: [] };
    const closed: Array<{ id: string; deleted_at: string }> = [];
    for (const { id } of items) closed.push({ id, deleted_at: (await customer.delete(id)).toISOString() });
    return { output: { customer_ids: closed.map((c) => c.id) }, compensateInput: closed };
  },
  compensate: async (closed: Array<{ id: string; deleted_at: string }>, ctx) => {
    for (const c of closed) await ctx.modules.customer.restore(c.id, new Date(c.deleted_at));
  },
});
