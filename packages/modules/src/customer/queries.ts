import { and, asc, eq, ne, sql, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rangeConditions,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import {
  customer,
  customerAddress,
  customerGroup,
  customerGroupCustomer as members,
  type CustomerAddressRow,
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

/** The statement clearing the customer's default address of one kind (`flag`). */
function clearDefault(flag: "is_default_shipping" | "is_default_billing") {
  return statement((v: Placeholders<{ customer_id: string; at: Date }>) =>
    db
      .update(customerAddress)
      .set({ [flag]: false, updated_at: v.at })
      .where(and(eq(customerAddress.customer_id, v.customer_id), eq(customerAddress[flag], true))),
  );
}

/** The filters of a customer list as conditions (`email` already normalized). */
const customerConditions = (filters: CustomerFilters): SQL[] => [
  ...inFilters(filters, { id: customer.id, email: customer.email }),
  ...(filters.has_account === undefined ? [] : [eq(customer.has_account, filters.has_account)]),
  ...(filters.groups?.length
    ? [
        sql`exists (select 1 from ${members} where ${members.customer_id} = ${customer.id} and ${inList(members.customer_group_id, filters.groups)})`,
      ]
    : []),
  ...rangeConditions(customer.created_at, filters.created_at),
  ...rangeConditions(customer.updated_at, filters.updated_at),
  ...textSearch(filters.q, [
    customer.email,
    customer.first_name,
    customer.last_name,
    customer.phone,
    customer.company_name,
  ]),
];

/** The filters of a group list as conditions. */
const groupConditions = (filters: CustomerGroupFilters): SQL[] => [
  ...inFilters(filters, { id: customerGroup.id, name: customerGroup.name }),
  ...textSearch(filters.q, [customerGroup.name]),
  ...(filters.customer_id?.length
    ? [
        sql`exists (select 1 from ${members} where ${members.customer_group_id} = ${customerGroup.id} and ${inList(members.customer_id, filters.customer_id)})`,
      ]
    : []),
];

/** Named statements on the customer tables, run on the current handle. */
export const customerQueries = {
  ...customers,
  list: customers.listBy(customerConditions),
  /** The live addresses of the customers `ids`, oldest first. */
  addressesOf: rowsOf(customerAddress, customerAddress.customer_id, {
    where: addresses.live,
    order: [customerAddress.created_at, customerAddress.id],
  }),
  /** The live groups of the customers `ids`, by name. */
  groupsOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ customer_id: members.customer_id, group: customerGroup })
      .from(members)
      .innerJoin(customerGroup, eq(customerGroup.id, members.customer_group_id))
      .where(and(inList(members.customer_id, v.ids), groups.live))
      .orderBy(customerGroup.name, customerGroup.id),
  ),
  /**
   * A live customer of this account kind with the email, other than `except_id` ("" when no customer
   * is excepted: no id is empty).
   */
  emailTaken: first(
    statement((v: Placeholders<{ email: string; has_account: boolean; except_id: string }>) =>
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
    ),
  ),
  /** The live customer with an account for the (normalized) email. */
  accountByEmail: first(
    statement((v: Placeholders<{ email: string }>) =>
      db
        .select()
        .from(customer)
        .where(and(eq(customer.email, v.email), eq(customer.has_account, true), customers.live))
        .limit(1),
    ),
  ),
  /** The live groups the customer `id` belongs to. */
  groupIdsOf: statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ id: customerGroup.id })
      .from(members)
      .innerJoin(customerGroup, eq(customerGroup.id, members.customer_group_id))
      .where(and(eq(members.customer_id, v.id), groups.live)),
  ),
  /** Soft-deletes the customer `id` at `at`, whatever its addresses. */
  deleteCustomer: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db.update(customer).set({ deleted_at: v.at, updated_at: v.at }).where(eq(customer.id, v.id)),
  ),
  /** Soft-deletes the live addresses of the customer `id` at `at`. */
  deleteAddressesOf: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db
      .update(customerAddress)
      .set({ deleted_at: v.at, updated_at: v.at })
      .where(and(eq(customerAddress.customer_id, v.id), addresses.live)),
  ),
  // A deletion's time is compared with the column: a placeholder skips the column's encoder, so it
  // is given as the ISO 8601 text the encoder makes of a `Date`.
  /** Makes the customer deleted at `deleted_at` live again. */
  undeleteCustomer: statement((v: Placeholders<{ id: string; deleted_at: string; at: Date }>) =>
    db
      .update(customer)
      .set({ deleted_at: null, updated_at: v.at })
      .where(and(eq(customer.id, v.id), eq(customer.deleted_at, v.deleted_at))),
  ),
  /** Makes the customer's addresses deleted at `deleted_at` live again. */
  undeleteAddressesOf: statement((v: Placeholders<{ id: string; deleted_at: string; at: Date }>) =>
    db
      .update(customerAddress)
      .set({ deleted_at: null, updated_at: v.at })
      .where(and(eq(customerAddress.customer_id, v.id), eq(customerAddress.deleted_at, v.deleted_at))),
  ),
  /** Removes the customer's row itself. */
  remove: statement((v: Placeholders<{ id: string }>) => db.delete(customer).where(eq(customer.id, v.id))),

  // --- addresses
  /** A page of the live addresses of the customer. */
  listAddresses: addresses.listBy((customerId: string) => [eq(customerAddress.customer_id, customerId)]),
  /** The live address `id` of the customer. */
  address: first(
    statement((v: Placeholders<{ customer_id: string; id: string }>) =>
      db
        .select()
        .from(customerAddress)
        .where(and(eq(customerAddress.id, v.id), eq(customerAddress.customer_id, v.customer_id), addresses.live)),
    ),
  ),
  insertAddress: addresses.insert,
  /** Sets `changes` on the address and answers it. */
  async updateAddress(id: string, changes: Partial<CustomerAddressRow>): Promise<CustomerAddressRow> {
    const [updated] = await db.update(customerAddress).set(changes).where(eq(customerAddress.id, id)).returning();
    return updated!;
  },
  /** Clears the customer's default shipping or billing address. */
  clearDefault: {
    is_default_shipping: clearDefault("is_default_shipping"),
    is_default_billing: clearDefault("is_default_billing"),
  },
  /** Soft-deletes the address (it stops being a default). */
  deleteAddress: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db
      .update(customerAddress)
      .set({ deleted_at: v.at, is_default_billing: false, is_default_shipping: false, updated_at: v.at })
      .where(eq(customerAddress.id, v.id)),
  ),

  // --- groups
  insertGroup: groups.insert,
  retrieveGroup: groups.retrieve,
  updateGroup: groups.update,
  softDeleteGroup: groups.softDelete,
  existingGroups: groups.existing,
  listGroups: groups.listBy(groupConditions),
  /** The live members of the groups `ids`, oldest membership first. */
  membersOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ customer_id: members.customer_id, group_id: members.customer_group_id })
      .from(members)
      .innerJoin(customer, eq(customer.id, members.customer_id))
      .where(and(inList(members.customer_group_id, v.ids), customers.live))
      .orderBy(asc(members.created_at), asc(members.customer_id)),
  ),
  /** Removes every membership of the group. */
  deleteMembershipsOf: statement((v: Placeholders<{ group_id: string }>) =>
    db.delete(members).where(eq(members.customer_group_id, v.group_id)),
  ),
  /** Adds memberships; one that exists stays as it is. */
  addMemberships: insertRows(members, { onConflictDoNothing: true }),
  /** Removes the memberships of the customers `customer_ids` in the groups `group_ids`. */
  removeMemberships: statement((v: Placeholders<{ customer_ids: string[]; group_ids: string[] }>) =>
    db
      .delete(members)
      .where(and(inList(members.customer_id, v.customer_ids), inList(members.customer_group_id, v.group_ids))),
  ),
};
