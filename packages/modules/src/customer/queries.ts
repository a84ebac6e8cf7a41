import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import {
  db,
  groupBy,
  inFilters,
  inList,
  liveRecords,
  rangeConditions,
  rowsOf,
  statement,
  textSearch,
  type ListPaging,
  type Placeholders,
} from "@kasse/db";
import {
  customer,
  customerAddress,
  customerGroup,
  customerGroupCustomer,
  type CustomerAddressRow,
  type CustomerGroupRow,
  type CustomerRow,
} from "./schema";
import type { CustomerFilters, CustomerGroupFilters } from "./shapes";

// The customer module's SQL (customers, addresses, groups): the only file of the module that
// imports drizzle and its tables.

const customers = liveRecords(customer, "Customer", {
  email: customer.email,
  first_name: customer.first_name,
  last_name: customer.last_name,
  phone: customer.phone,
  company: customer.company_name,
  company_name: customer.company_name,
  has_account: customer.has_account,
});
const groups = liveRecords(customerGroup, "Customer group", { name: customerGroup.name });
const addresses = liveRecords(customerAddress, "Address");
const members = customerGroupCustomer;

const addressesOf = rowsOf(customerAddress, customerAddress.customer_id, {
  where: addresses.live,
  order: [customerAddress.created_at, customerAddress.id],
});

const groupsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ customer_id: members.customer_id, group: customerGroup })
    .from(members)
    .innerJoin(customerGroup, eq(customerGroup.id, members.customer_group_id))
    .where(and(inList(members.customer_id, v.ids), groups.live))
    .orderBy(customerGroup.name, customerGroup.id),
);

// `except_id` is "" when no customer is excepted: no id is empty.
const emailTaken = statement((v: Placeholders<{ email: string; has_account: boolean; except_id: string }>) =>
  db
    .select({ id: customer.id })
    .from(customer)
    .where(
      and(
        eq(customer.email, v.email),
        eq(customer.has_account, v.has_account),
        customers.live,
        ne(customer.id, v.except_id),
      ),
    )
    .limit(1),
);

const accountByEmail = statement((v: Placeholders<{ email: string }>) =>
  db
    .select()
    .from(customer)
    .where(and(eq(customer.email, v.email), eq(customer.has_account, true), customers.live))
    .limit(1),
);

const groupIdsOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ id: customerGroup.id })
    .from(members)
    .innerJoin(customerGroup, eq(customerGroup.id, members.customer_group_id))
    .where(and(eq(members.customer_id, v.id), groups.live)),
);

const deleteCustomer = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db.update(customer).set({ deleted_at: v.at, updated_at: v.at }).where(eq(customer.id, v.id)),
);

const deleteAddressesOf = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(customerAddress)
    .set({ deleted_at: v.at, updated_at: v.at })
    .where(and(eq(customerAddress.customer_id, v.id), addresses.live)),
);

// A deletion's time is compared with the column: a placeholder skips the column's encoder, so it
// is given as the ISO 8601 text the encoder makes of a `Date`.
const undeleteCustomer = statement((v: Placeholders<{ id: string; deleted_at: string; at: Date }>) =>
  db
    .update(customer)
    .set({ deleted_at: null, updated_at: v.at })
    .where(and(eq(customer.id, v.id), eq(customer.deleted_at, v.deleted_at))),
);

const undeleteAddressesOf = statement((v: Placeholders<{ id: string; deleted_at: string; at: Date }>) =>
  db
    .update(customerAddress)
    .set({ deleted_at: null, updated_at: v.at })
    .where(and(eq(customerAddress.customer_id, v.id), eq(customerAddress.deleted_at, v.deleted_at))),
);

const removeCustomer = statement((v: Placeholders<{ id: string }>) => db.delete(customer).where(eq(customer.id, v.id)));

const addressOf = statement((v: Placeholders<{ customer_id: string; id: string }>) =>
  db
    .select()
    .from(customerAddress)
    .where(and(eq(customerAddress.id, v.id), eq(customerAddress.customer_id, v.customer_id), addresses.live)),
);

const clearDefaultShipping = statement((v: Placeholders<{ customer_id: string; at: Date }>) =>
  db
    .update(customerAddress)
    .set({ is_default_shipping: false, updated_at: v.at })
    .where(and(eq(customerAddress.customer_id, v.customer_id), eq(customerAddress.is_default_shipping, true))),
);

const clearDefaultBilling = statement((v: Placeholders<{ customer_id: string; at: Date }>) =>
  db
    .update(customerAddress)
    .set({ is_default_billing: false, updated_at: v.at })
    .where(and(eq(customerAddress.customer_id, v.customer_id), eq(customerAddress.is_default_billing, true))),
);

const deleteAddress = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(customerAddress)
    .set({ deleted_at: v.at, is_default_billing: false, is_default_shipping: false, updated_at: v.at })
    .where(eq(customerAddress.id, v.id)),
);

const membersOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ customer_id: members.customer_id, group_id: members.customer_group_id })
    .from(members)
    .innerJoin(customer, eq(customer.id, members.customer_id))
    .where(and(inList(members.customer_group_id, v.ids), customers.live))
    .orderBy(asc(members.created_at), asc(members.customer_id)),
);

const deleteMembershipsOf = statement((v: Placeholders<{ group_id: string }>) =>
  db.delete(members).where(eq(members.customer_group_id, v.group_id)),
);

const removeFromGroup = statement((v: Placeholders<{ group_id: string; customer_ids: string[] }>) =>
  db.delete(members).where(and(eq(members.customer_group_id, v.group_id), inList(members.customer_id, v.customer_ids))),
);

const removeFromGroups = statement((v: Placeholders<{ customer_id: string; group_ids: string[] }>) =>
  db.delete(members).where(and(eq(members.customer_id, v.customer_id), inList(members.customer_group_id, v.group_ids))),
);

/** The filters of a customer list as conditions (`email` already normalized). */
function customerConditions(filters: CustomerFilters): SQL[] {
  const out = inFilters(filters, { id: customer.id, email: customer.email });
  if (filters.has_account !== undefined) out.push(eq(customer.has_account, filters.has_account));
  if (filters.groups?.length)
    out.push(
      sql`exists (select 1 from ${members} where ${members.customer_id} = ${customer.id} and ${inList(members.customer_group_id, filters.groups)})`,
    );
  out.push(
    ...rangeConditions(customer.created_at, filters.created_at),
    ...rangeConditions(customer.updated_at, filters.updated_at),
  );
  out.push(
    ...textSearch(filters.q, [
      customer.email,
      customer.first_name,
      customer.last_name,
      customer.phone,
      customer.company_name,
    ]),
  );
  return out;
}

/** The filters of a group list as conditions. */
function groupConditions(filters: CustomerGroupFilters): SQL[] {
  const out = inFilters(filters, { id: customerGroup.id, name: customerGroup.name });
  out.push(...textSearch(filters.q, [customerGroup.name]));
  if (filters.customer_id?.length)
    out.push(
      sql`exists (select 1 from ${members} where ${members.customer_group_id} = ${customerGroup.id} and ${inList(members.customer_id, filters.customer_id)})`,
    );
  return out;
}

/** Named statements on the customer tables, run on the current handle. */
export const customerQueries = {
  ...customers,
  list: customers.listBy(customerConditions),
  /** The live addresses of the customers `ids`, oldest first. */
  addressesOf: (ids: string[]): Promise<CustomerAddressRow[]> => addressesOf(ids),
  /** The live groups of the customers `ids`, by name. */
  groupsOf: (ids: string[]): Promise<Array<{ customer_id: string; group: CustomerGroupRow }>> => groupsOf({ ids }),
  /** Whether another live customer (not `exceptId`) of this account kind has the email. */
  emailTaken: async (email: string, hasAccount: boolean, exceptId: string | null): Promise<boolean> =>
    (await emailTaken({ email, has_account: hasAccount, except_id: exceptId ?? "" })).length > 0,
  /** The live customer with an account for the (normalized) email. */
  accountByEmail: async (email: string): Promise<CustomerRow | undefined> => (await accountByEmail({ email }))[0],
  groupIdsOf: async (customerId: string): Promise<string[]> => (await groupIdsOf({ id: customerId })).map((r) => r.id),
  /** Soft-deletes the customer and its live addresses at `at`. */
  async softDelete(id: string, at: Date): Promise<void> {
    await deleteAddressesOf({ id, at });
    await deleteCustomer({ id, at });
  },
  /** Makes the customer and its addresses deleted at `deletedAt` live again. */
  async undelete(id: string, deletedAt: Date): Promise<void> {
    const at = new Date();
    await undeleteCustomer({ id, deleted_at: deletedAt.toISOString(), at });
    await undeleteAddressesOf({ id, deleted_at: deletedAt.toISOString(), at });
  },
  /** Removes the customer's row itself. */
  remove: async (id: string): Promise<void> => {
    await removeCustomer({ id });
  },

  // --- addresses
  listAddresses: (customerId: string, page: ListPaging) =>
    addresses.list([eq(customerAddress.customer_id, customerId)], page),
  /** The live address `id` of the customer. */
  address: async (customerId: string, id: string): Promise<CustomerAddressRow | undefined> =>
    (await addressOf({ customer_id: customerId, id }))[0],
  insertAddress: addresses.insert,
  /** Sets `changes` on the address and answers it. */
  async updateAddress(id: string, changes: Partial<CustomerAddressRow>): Promise<CustomerAddressRow> {
    const [updated] = await db.update(customerAddress).set(changes).where(eq(customerAddress.id, id)).returning();
    return updated!;
  },
  /** Clears the customer's default shipping and/or billing address. */
  async clearDefaults(customerId: string, flags: { shipping?: boolean; billing?: boolean }): Promise<void> {
    const at = new Date();
    if (flags.shipping) await clearDefaultShipping({ customer_id: customerId, at });
    if (flags.billing) await clearDefaultBilling({ customer_id: customerId, at });
  },
  /** Soft-deletes the address (it stops being a default). */
  deleteAddress: async (id: string): Promise<void> => {
    await deleteAddress({ id, at: new Date() });
  },

  // --- groups
  insertGroup: groups.insert,
  retrieveGroup: groups.retrieve,
  updateGroup: groups.update,
  softDeleteGroup: groups.softDelete,
  existingGroups: groups.existing,
  listGroups: groups.listBy(groupConditions),
  /** The live members' ids of each of the groups `ids` (every group has an entry), oldest membership first. */
  async membersOf(ids: string[]): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    return groupBy(await membersOf({ ids }), (r) => r.group_id, { value: (r) => r.customer_id, keys: ids });
  },
  /** Removes every membership of the group. */
  deleteMembershipsOf: async (groupId: string): Promise<void> => {
    await deleteMembershipsOf({ group_id: groupId });
  },
  /** Adds memberships; one that exists stays as it is. */
  async addMemberships(
    rows: Array<{ customer_id: string; customer_group_id: string; created_by: string | null }>,
  ): Promise<void> {
    await db.insert(members).values(rows).onConflictDoNothing();
  },
  removeFromGroup: async (groupId: string, customerIds: string[]): Promise<void> => {
    await removeFromGroup({ group_id: groupId, customer_ids: customerIds });
  },
  removeFromGroups: async (customerId: string, groupIds: string[]): Promise<void> => {
    await removeFromGroups({ customer_id: customerId, group_ids: groupIds });
  },
};
