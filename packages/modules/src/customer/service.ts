import { errors, generateId, normalizeEmail } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging } from "@kasse/db";
import { customerQueries as q } from "./queries";
import type { CustomerAddressRow, CustomerGroupRow, CustomerRow } from "./schema";
import type {
  AddressCreate,
  AddressUpdate,
  CustomerCreate,
  CustomerFilters,
  CustomerGroupCreate,
  CustomerGroupUpdate,
  CustomerUpdate,
} from "./shapes";

/** A customer with its addresses and groups: the shape every customer response starts from. */
export type CustomerDetail = CustomerRow & {
  company: string | null;
  default_billing_address_id: string | null;
  default_shipping_address_id: string | null;
  addresses: CustomerAddressRow[];
  groups: CustomerGroupRow[];
};

/** Extra columns set by the caller, not by the request body. */
export interface CustomerCreateContext {
  has_account?: boolean;
  created_by?: string | null;
}

/** Who made a group or a membership (the admin user), when the caller knows. */
type Author = { created_by?: string | null };

/** The members (or groups) a membership change adds and removes. */
type MembershipChange = { add?: string[]; remove?: string[] };

/** `company` (contract) and `company_name` (Medusa) name one column; `company` wins when both are sent. */
function companyOf(input: { company?: string | null; company_name?: string | null }): string | null | undefined {
  return input.company !== undefined ? input.company : input.company_name;
}

/** The answer to an email change by update, on a registered customer: how to change it instead. */
const EMAIL_CHANGE_NEEDS_PROOF =
  "A registered customer's email changes only once the new address is proven: POST /store/customers/me/email {email} mails it a token, then POST /store/customers/me/email/confirm {token} with the customer's token changes it";

/**
 * Customers, their addresses and customer groups. Built once per process; every method runs in the
 * transaction in progress, if any.
 * @example
 * const customers = createCustomerService();
 * const c = await customers.create({ email: "ana@example.com" }, { created_by: "user_1" });
 */
export function createCustomerService() {
  const service = {
    /** Creates a customer; `has_account` and `created_by` come from the caller (register vs admin). */
    async create(input: CustomerCreate, context: CustomerCreateContext = {}): Promise<CustomerDetail> {
      const email = normalizeEmail(input.email);
      const hasAccount = context.has_account ?? false;
      await assertEmailFree(email, hasAccount, null);
      const created = await q.insert(
        {
          id: generateId("cus"),
          email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          phone: input.phone ?? null,
          company_name: companyOf(input) ?? null,
          has_account: hasAccount,
          created_by: context.created_by ?? null,
          metadata: input.metadata ?? null,
        },
        `A customer with email ${email} already exists`,
      );
      return (await withRelations([created]))[0]!;
    },

    async retrieve(id: string): Promise<CustomerDetail> {
      return (await withRelations([await q.retrieve(id)]))[0]!;
    },

    list: (filters: CustomerFilters, page: ListPaging) =>
      viewPage(
        q.list(filters.email ? { ...filters, email: filters.email.map(normalizeEmail) } : filters, page),
        withRelations,
      ),

    async update(id: string, input: CustomerUpdate): Promise<CustomerDetail> {
      const existing = await q.retrieve(id);
      const { company: _company, company_name: _companyName, email, ...rest } = input;
      const changes: Partial<CustomerRow> = { ...rest };
      const company = companyOf(input);
      if (company !== undefined) changes.company_name = company;
      if (email !== undefined && normalizeEmail(email) !== existing.email) {
        // A registered customer's address is their sign-in's: it changes only once the new one is proven.
        if (existing.has_account) throw errors.invalidData(EMAIL_CHANGE_NEEDS_PROOF);
        changes.email = normalizeEmail(email);
        await assertEmailFree(changes.email, existing.has_account, id);
      }
      if (Object.keys(changes).length > 0)
        await q.update(id, changes, `A customer with email ${changes.email} already exists`);
      return service.retrieve(id);
    },

    /**
     * Sets a registered customer's email to an address they proved (the change-customer-email
     * workflow); answers the previous one. Another live account with it is `conflict`.
     */
    async changeEmail(id: string, email: string): Promise<{ previous: string }> {
      const existing = await q.retrieve(id);
      const next = normalizeEmail(email);
      await assertEmailFree(next, existing.has_account, id);
      await q.update(id, { email: next }, `A customer with email ${next} already exists`);
      return { previous: existing.email };
    },

    /** Soft delete of the customer and its addresses; answers the deletion time (what {@link restore} undoes). */
    async delete(id: string): Promise<Date> {
      await q.retrieve(id);
      const at = new Date();
      await transaction(async () => {
        await q.deleteAddressesOf({ id, at });
        await q.deleteCustomer({ id, at });
      });
      return at;
    },

    /** Undoes {@link delete}: the customer and the addresses deleted with it (at `deletedAt`) are live again. */
    async restore(id: string, deletedAt: Date): Promise<void> {
      const undelete = { id, deleted_at: deletedAt.toISOString(), at: new Date() };
      await transaction(async () => {
        await q.undeleteCustomer(undelete);
        await q.undeleteAddressesOf(undelete);
      });
    },

    /** The live customer with an account for `email`, or null. */
    findAccountByEmail: async (email: string): Promise<CustomerRow | null> =>
      (await q.accountByEmail({ email: normalizeEmail(email) })) ?? null,

    /** Removes a customer that was just created, row and all (the compensation of creating it). */
    async remove(id: string): Promise<void> {
      await q.remove({ id });
    },

    /** The ids of the (live) groups a customer belongs to: pricing uses it for customer-group price lists. */
    groupIdsOfCustomer: async (customerId: string): Promise<string[]> =>
      (await q.groupIdsOf({ id: customerId })).map((r) => r.id),

    // --- addresses -------------------------------------------------------------------------

    /** A customer's addresses, oldest first. */
    async listAddresses(customerId: string, page: ListPaging): Promise<{ items: CustomerAddressRow[]; count: number }> {
      await q.retrieve(customerId);
      const { limit, offset } = page;
      return q.listAddresses(customerId, { limit, offset });
    },

    /** An address of this customer; another customer's address is not found (never revealed). */
    async retrieveAddress(customerId: string, addressId: string): Promise<CustomerAddressRow> {
      const found = await q.address({ customer_id: customerId, id: addressId });
      if (!found) throw errors.notFound(`Address with id: ${addressId} was not found`);
      return found;
    },

    /** Adds an address; a default flag moves the default from the previous address. */
    async addAddress(customerId: string, input: AddressCreate): Promise<CustomerAddressRow> {
      return transaction(async () => {
        await q.lock(customerId);
        await clearDefaults(customerId, input);
        return q.insertAddress({
          ...input,
          id: generateId("cuaddr"),
          customer_id: customerId,
          country_code: input.country_code.toLowerCase(),
        });
      });
    },

    async updateAddress(customerId: string, addressId: string, input: AddressUpdate): Promise<CustomerAddressRow> {
      return transaction(async () => {
        await q.lock(customerId);
        const existing = await service.retrieveAddress(customerId, addressId);
        if (Object.keys(input).length === 0) return existing;
        await clearDefaults(customerId, input);
        const changes = { ...input, ...(input.country_code ? { country_code: input.country_code.toLowerCase() } : {}) };
        return q.updateAddress(addressId, changes);
      });
    },

    async deleteAddress(customerId: string, addressId: string): Promise<void> {
      await service.retrieveAddress(customerId, addressId);
      await q.deleteAddress({ id: addressId, at: new Date() });
    },

    // --- groups ----------------------------------------------------------------------------

    async createGroup(input: CustomerGroupCreate, context: Author = {}): Promise<CustomerGroupRow> {
      return q.insertGroup(
        {
          id: generateId("cusgroup"),
          name: input.name,
          metadata: input.metadata ?? null,
          created_by: context.created_by ?? null,
        },
        `A customer group named ${input.name} already exists`,
      );
    },

    retrieveGroup: q.retrieveGroup,

    /** The live members' ids of each group (every group has an entry), in one query, oldest membership first. */
    async memberIds(groupIds: string[]): Promise<Map<string, string[]>> {
      if (groupIds.length === 0) return new Map();
      const rows = await q.membersOf({ ids: groupIds });
      return groupBy(rows, (r) => r.group_id, { value: (r) => r.customer_id, keys: groupIds });
    },

    listGroups: q.listGroups,

    updateGroup: (id: string, input: CustomerGroupUpdate): Promise<CustomerGroupRow> =>
      q.updateGroup(id, input, `A customer group named ${input.name} already exists`),

    /** Soft delete; memberships go with the group. */
    async deleteGroup(id: string): Promise<void> {
      await service.retrieveGroup(id);
      await transaction(async () => {
        await q.deleteMembershipsOf({ group_id: id });
        await q.softDeleteGroup(id);
      });
    },

    /**
     * Adds and removes members in one transaction. Every id must be a live customer, else
     * `invalid_data` and nothing changes. Adding a member twice is a no-op.
     */
    async updateGroupCustomers(groupId: string, change: MembershipChange, context: Author = {}) {
      return transaction(async () => {
        const group = await service.retrieveGroup(groupId);
        await changeMemberships({ customer_group_id: groupId }, change, context.created_by ?? null);
        return group;
      });
    },

    /**
     * The same membership seen from the customer (Medusa's `POST /admin/customers/{id}/customer-groups`):
     * adds and removes groups in one transaction. Every group id must be a live group, else
     * `invalid_data` and nothing changes; an unknown customer is `not_found`.
     */
    async updateCustomerGroups(customerId: string, change: MembershipChange, context: Author = {}) {
      await transaction(async () => {
        await q.lock(customerId);
        await changeMemberships({ customer_id: customerId }, change, context.created_by ?? null);
      });
      return service.retrieve(customerId);
    },
  };
  return service;
}

export type CustomerService = ReturnType<typeof createCustomerService>;

/**
 * Adds and removes memberships of one group (`{customer_group_id}`: `change` names customers) or of
 * one customer (`{customer_id}`: `change` names groups), as Medusa changes them from either side.
 * Every named id must be live, else `invalid_data` and nothing changes; adding a member twice is a no-op.
 */
async function changeMemberships(
  of: { customer_group_id: string } | { customer_id: string },
  change: MembershipChange,
  createdBy: string | null,
): Promise<void> {
  const add = [...new Set(change.add ?? [])];
  const remove = [...new Set(change.remove ?? [])];
  const wanted = [...new Set([...add, ...remove])];
  const ofGroup = "customer_group_id" in of;
  const known = ofGroup ? await q.existing(wanted) : await q.existingGroups(wanted);
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw errors.invalidData(
      `${ofGroup ? "Customers" : "Customer groups"} with ids: ${unknown.join(", ")} were not found`,
    );
  const ownId = "customer_group_id" in of ? of.customer_group_id : of.customer_id;
  const pair = (id: string) =>
    ofGroup ? { customer_id: id, customer_group_id: ownId } : { customer_id: ownId, customer_group_id: id };
  if (add.length > 0) await q.addMemberships(add.map((id) => ({ ...pair(id), created_by: createdBy })));
  if (remove.length > 0)
    await q.removeMemberships(
      ofGroup ? { customer_ids: remove, group_ids: [ownId] } : { customer_ids: [ownId], group_ids: remove },
    );
}

/** Loads addresses and groups of many customers with one query per relation. */
async function withRelations(rows: CustomerRow[]): Promise<CustomerDetail[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [addresses, memberships] = await Promise.all([q.addressesOf(ids), q.groupsOf({ ids })]);
  const addressesOf = groupBy(addresses, (a) => a.customer_id);
  const groupsOf = groupBy(memberships, (m) => m.customer_id, { value: (m) => m.group });
  return rows.map((row) => {
    const own = addressesOf.get(row.id) ?? [];
    return {
      ...row,
      company: row.company_name,
      default_billing_address_id: own.find((a) => a.is_default_billing)?.id ?? null,
      default_shipping_address_id: own.find((a) => a.is_default_shipping)?.id ?? null,
      addresses: own,
      groups: groupsOf.get(row.id) ?? [],
    };
  });
}

async function assertEmailFree(email: string, hasAccount: boolean, exceptId: string | null): Promise<void> {
  if (await q.emailTaken({ email, has_account: hasAccount, except_id: exceptId ?? "" }))
    throw errors.conflict(`A customer with email ${email}${hasAccount ? " and an account" : ""} already exists`);
}

/** Clears the previous default of each kind the new or updated address claims. */
async function clearDefaults(
  customer_id: string,
  flags: { is_default_shipping?: boolean; is_default_billing?: boolean },
): Promise<void> {
  const at = new Date();
  for (const flag of ["is_default_shipping", "is_default_billing"] as const)
    if (flags[flag]) await q.clearDefault[flag]({ customer_id, at });
}
