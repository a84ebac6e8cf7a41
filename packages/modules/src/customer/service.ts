import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  rangeConditions,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  textSearch,
  groupByParent,
} from "@kasse/db";
import {
  customer,
  customerAddress,
  customerGroup,
  customerGroupCustomer,
  type AddressCreate,
  type AddressUpdate,
  type CustomerAddressRow,
  type CustomerCreate,
  type CustomerFilters,
  type CustomerGroupCreate,
  type CustomerGroupFilters,
  type CustomerGroupRow,
  type CustomerGroupUpdate,
  type CustomerRow,
  type CustomerUpdate,
} from "./schema";

const live = isNull(customer.deleted_at);
const liveAddress = isNull(customerAddress.deleted_at);
const liveGroup = isNull(customerGroup.deleted_at);

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

/** `company` (contract) and `company_name` (Medusa) name one column; `company` wins when both are sent. */
function companyOf(input: { company?: string | null; company_name?: string | null }): string | null | undefined {
  return input.company !== undefined ? input.company : input.company_name;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The answer to an email change by update, on a registered customer: how to change it instead. */
const EMAIL_CHANGE_NEEDS_PROOF =
  "A registered customer's email changes only once the new address is proven: POST /store/customers/me/email {email} mails it a token, then POST /store/customers/me/email/confirm {token} with the customer's token changes it";

/**
 * Customers, their addresses and customer groups.
 * @example
 * const customers = createCustomerService(db);
 * const c = await customers.create({ email: "ana@example.com" }, { created_by: "user_1" });
 */
export function createCustomerService(db: Db) {
  /** Loads addresses and groups of many customers with one query per relation. */
  async function withRelations(rows: CustomerRow[]): Promise<CustomerDetail[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [addresses, memberships] = await Promise.all([
      db
        .select()
        .from(customerAddress)
        .where(and(inArray(customerAddress.customer_id, ids), liveAddress))
        .orderBy(customerAddress.created_at, customerAddress.id),
      db
        .select({ customer_id: customerGroupCustomer.customer_id, group: customerGroup })
        .from(customerGroupCustomer)
        .innerJoin(customerGroup, eq(customerGroup.id, customerGroupCustomer.customer_group_id))
        .where(and(inArray(customerGroupCustomer.customer_id, ids), liveGroup))
        .orderBy(customerGroup.name, customerGroup.id),
    ]);
    return rows.map((row) => {
      const own = addresses.filter((a) => a.customer_id === row.id);
      return {
        ...row,
        company: row.company_name,
        default_billing_address_id: own.find((a) => a.is_default_billing)?.id ?? null,
        default_shipping_address_id: own.find((a) => a.is_default_shipping)?.id ?? null,
        addresses: own,
        groups: memberships.filter((m) => m.customer_id === row.id).map((m) => m.group),
      };
    });
  }

  const customers = liveRecords(db, customer, "Customer", {
    email: customer.email,
    first_name: customer.first_name,
    last_name: customer.last_name,
    phone: customer.phone,
    company: customer.company_name,
    company_name: customer.company_name,
    has_account: customer.has_account,
  });
  const groups = liveRecords(db, customerGroup, "Customer group", { name: customerGroup.name });
  const addresses = liveRecords(db, customerAddress, "Address");

  async function assertEmailFree(email: string, hasAccount: boolean, exceptId: string | null): Promise<void> {
    const [taken] = await db
      .select({ id: customer.id })
      .from(customer)
      .where(
        and(
          eq(customer.email, email),
          eq(customer.has_account, hasAccount),
          live,
          exceptId ? ne(customer.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (taken)
      throw errors.conflict(`A customer with email ${email}${hasAccount ? " and an account" : ""} already exists`);
  }

  /** Clears the previous default of each kind the new or updated address claims. */
  async function clearDefaults(
    customerId: string,
    flags: { is_default_shipping?: boolean; is_default_billing?: boolean },
    tx: Db,
  ): Promise<void> {
    if (flags.is_default_shipping)
      await tx
        .update(customerAddress)
        .set({ is_default_shipping: false })
        .where(and(eq(customerAddress.customer_id, customerId), eq(customerAddress.is_default_shipping, true)));
    if (flags.is_default_billing)
      await tx
        .update(customerAddress)
        .set({ is_default_billing: false })
        .where(and(eq(customerAddress.customer_id, customerId), eq(customerAddress.is_default_billing, true)));
  }

  const service = {
    /** Creates a customer; `has_account` and `created_by` come from the caller (register vs admin). */
    async create(input: CustomerCreate, context: CustomerCreateContext = {}): Promise<CustomerDetail> {
      const email = normalizeEmail(input.email);
      const hasAccount = context.has_account ?? false;
      await assertEmailFree(email, hasAccount, null);
      const created = await customers.insert(
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
      return (await withRelations([await customers.retrieve(id)]))[0]!;
    },

    async list(filters: CustomerFilters, page: ListPaging): Promise<{ items: CustomerDetail[]; count: number }> {
      const { items, count } = await customers.list(customerConditions(filters), page);
      return { items: await withRelations(items), count };
    },

    async update(id: string, input: CustomerUpdate): Promise<CustomerDetail> {
      const existing = await customers.retrieve(id);
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
        await customers.update(id, changes, `A customer with email ${changes.email} already exists`);
      return service.retrieve(id);
    },

    /**
     * Sets a registered customer's email to an address they proved (the change-customer-email
     * workflow); answers the previous one. Another live account with it is `conflict`.
     */
    async changeEmail(id: string, email: string): Promise<{ previous: string }> {
      const existing = await customers.retrieve(id);
      const next = normalizeEmail(email);
      await assertEmailFree(next, existing.has_account, id);
      await customers.update(id, { email: next }, `A customer with email ${next} already exists`);
      return { previous: existing.email };
    },

    /** Soft delete of the customer and its addresses; answers the deletion time (what {@link restore} undoes). */
    async delete(id: string): Promise<Date> {
      await customers.retrieve(id);
      const now = new Date();
      await transaction(db, async (t) => {
        await t
          .update(customerAddress)
          .set({ deleted_at: now })
          .where(and(eq(customerAddress.customer_id, id), liveAddress));
        await t.update(customer).set({ deleted_at: now }).where(eq(customer.id, id));
      });
      return now;
    },

    /** Undoes {@link delete}: the customer and the addresses deleted with it (at `deletedAt`) are live again. */
    async restore(id: string, deletedAt: Date): Promise<void> {
      await transaction(db, async (t) => {
        await t
          .update(customer)
          .set({ deleted_at: null })
          .where(and(eq(customer.id, id), eq(customer.deleted_at, deletedAt)));
        await t
          .update(customerAddress)
          .set({ deleted_at: null })
          .where(and(eq(customerAddress.customer_id, id), eq(customerAddress.deleted_at, deletedAt)));
      });
    },

    /** The live customer with an account for `email`, or null. */
    async findAccountByEmail(email: string): Promise<CustomerRow | null> {
      const [found] = await db
        .select()
        .from(customer)
        .where(and(eq(customer.email, normalizeEmail(email)), eq(customer.has_account, true), live))
        .limit(1);
      return found ?? null;
    },

    /** The ids of the (live) groups a customer belongs to: pricing uses it for customer-group price lists. */
    async groupIdsOfCustomer(customerId: string): Promise<string[]> {
      const rows = await db
        .select({ id: customerGroup.id })
        .from(customerGroupCustomer)
        .innerJoin(customerGroup, eq(customerGroup.id, customerGroupCustomer.customer_group_id))
        .where(and(eq(customerGroupCustomer.customer_id, customerId), liveGroup));
      return rows.map((r) => r.id);
    },

    // --- addresses -------------------------------------------------------------------------

    /** A customer's addresses, oldest first. */
    async listAddresses(customerId: string, page: ListPaging): Promise<{ items: CustomerAddressRow[]; count: number }> {
      await customers.retrieve(customerId);
      const { limit, offset } = page;
      return addresses.list([eq(customerAddress.customer_id, customerId)], { limit, offset });
    },

    /** An address of this customer; another customer's address is not found (never revealed). */
    async retrieveAddress(customerId: string, addressId: string): Promise<CustomerAddressRow> {
      const [found] = await db
        .select()
        .from(customerAddress)
        .where(and(eq(customerAddress.id, addressId), eq(customerAddress.customer_id, customerId), liveAddress));
      if (!found) throw errors.notFound(`Address with id: ${addressId} was not found`);
      return found;
    },

    /** Adds an address; a default flag moves the default from the previous address. */
    async addAddress(customerId: string, input: AddressCreate): Promise<CustomerAddressRow> {
      return transaction(db, async (t) => {
        await lockCustomer(t, customerId);
        await clearDefaults(customerId, input, t);
        const [created] = await t
          .insert(customerAddress)
          .values({
            id: generateId("cuaddr"),
            customer_id: customerId,
            address_name: input.address_name ?? null,
            is_default_shipping: input.is_default_shipping ?? false,
            is_default_billing: input.is_default_billing ?? false,
            company: input.company ?? null,
            first_name: input.first_name ?? null,
            last_name: input.last_name ?? null,
            address_1: input.address_1,
            address_2: input.address_2 ?? null,
            city: input.city,
            country_code: input.country_code.toLowerCase(),
            province: input.province ?? null,
            postal_code: input.postal_code,
            phone: input.phone ?? null,
            metadata: input.metadata ?? null,
          })
          .returning();
        return created!;
      });
    },

    async updateAddress(customerId: string, addressId: string, input: AddressUpdate): Promise<CustomerAddressRow> {
      return transaction(db, async (t) => {
        await lockCustomer(t, customerId);
        const existing = await createCustomerService(t).retrieveAddress(customerId, addressId);
        if (Object.keys(input).length === 0) return existing;
        await clearDefaults(customerId, input, t);
        const changes = { ...input, ...(input.country_code ? { country_code: input.country_code.toLowerCase() } : {}) };
        const [updated] = await t
          .update(customerAddress)
          .set(changes)
          .where(eq(customerAddress.id, addressId))
          .returning();
        return updated!;
      });
    },

    async deleteAddress(customerId: string, addressId: string): Promise<void> {
      await service.retrieveAddress(customerId, addressId);
      await db
        .update(customerAddress)
        .set({ deleted_at: new Date(), is_default_billing: false, is_default_shipping: false })
        .where(eq(customerAddress.id, addressId));
    },

    // --- groups ----------------------------------------------------------------------------

    async createGroup(
      input: CustomerGroupCreate,
      context: { created_by?: string | null } = {},
    ): Promise<CustomerGroupRow> {
      return groups.insert(
        {
          id: generateId("cusgroup"),
          name: input.name,
          metadata: input.metadata ?? null,
          created_by: context.created_by ?? null,
        },
        `A customer group named ${input.name} already exists`,
      );
    },

    retrieveGroup: (id: string): Promise<CustomerGroupRow> => groups.retrieve(id),

    /** The live members' ids of each group, in one query, oldest membership first. */
    async memberIds(groupIds: string[]): Promise<Map<string, string[]>> {
      return groupByParent(
        groupIds,
        (ids) =>
          db
            .select({
              customer_id: customerGroupCustomer.customer_id,
              group_id: customerGroupCustomer.customer_group_id,
            })
            .from(customerGroupCustomer)
            .innerJoin(customer, eq(customer.id, customerGroupCustomer.customer_id))
            .where(and(inArray(customerGroupCustomer.customer_group_id, ids), isNull(customer.deleted_at)))
            .orderBy(asc(customerGroupCustomer.created_at), asc(customerGroupCustomer.customer_id)),
        (r) => r.group_id,
        { value: (r) => r.customer_id, everyParent: true },
      );
    },

    async listGroups(
      filters: CustomerGroupFilters,
      page: ListPaging,
    ): Promise<{ items: CustomerGroupRow[]; count: number }> {
      const conditions = anyOf(filters, { id: customerGroup.id, name: customerGroup.name });
      conditions.push(...textSearch(filters.q, [customerGroup.name]));
      if (filters.customer_id?.length) {
        conditions.push(
          inArray(
            customerGroup.id,
            db
              .select({ id: customerGroupCustomer.customer_group_id })
              .from(customerGroupCustomer)
              .where(inArray(customerGroupCustomer.customer_id, filters.customer_id)),
          ),
        );
      }
      return groups.list(conditions, page);
    },

    updateGroup: (id: string, input: CustomerGroupUpdate): Promise<CustomerGroupRow> =>
      groups.update(id, input, `A customer group named ${input.name} already exists`),

    /** Soft delete; memberships go with the group. */
    async deleteGroup(id: string): Promise<void> {
      await service.retrieveGroup(id);
      await transaction(db, async (t) => {
        await t.delete(customerGroupCustomer).where(eq(customerGroupCustomer.customer_group_id, id));
        await t.update(customerGroup).set({ deleted_at: new Date() }).where(eq(customerGroup.id, id));
      });
    },

    /**
     * Adds and removes members in one transaction. Every id must be a live customer, else
     * `invalid_data` and nothing changes. Adding a member twice is a no-op.
     */
    async updateGroupCustomers(
      groupId: string,
      change: { add?: string[]; remove?: string[] },
      context: { created_by?: string | null } = {},
    ): Promise<CustomerGroupRow> {
      return transaction(db, async (t) => {
        const group = await createCustomerService(t).retrieveGroup(groupId);
        await changeMemberships(t, { customer_group_id: groupId }, change, context.created_by ?? null);
        return group;
      });
    },

    /**
     * The same membership seen from the customer (Medusa's `POST /admin/customers/{id}/customer-groups`):
     * adds and removes groups in one transaction. Every group id must be a live group, else
     * `invalid_data` and nothing changes; an unknown customer is `not_found`.
     */
    async updateCustomerGroups(
      customerId: string,
      change: { add?: string[]; remove?: string[] },
      context: { created_by?: string | null } = {},
    ): Promise<CustomerDetail> {
      await transaction(db, async (t) => {
        await lockCustomer(t, customerId);
        await changeMemberships(t, { customer_id: customerId }, change, context.created_by ?? null);
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
  tx: Db,
  of: { customer_group_id: string } | { customer_id: string },
  change: { add?: string[]; remove?: string[] },
  createdBy: string | null,
): Promise<void> {
  const add = [...new Set(change.add ?? [])];
  const remove = [...new Set(change.remove ?? [])];
  const wanted = [...new Set([...add, ...remove])];
  const ofGroup = "customer_group_id" in of;
  const known = ofGroup
    ? await liveRecords(tx, customer, "Customer").existing(wanted)
    : await liveRecords(tx, customerGroup, "Customer group").existing(wanted);
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw errors.invalidData(
      `${ofGroup ? "Customers" : "Customer groups"} with ids: ${unknown.join(", ")} were not found`,
    );
  const ownId = "customer_group_id" in of ? of.customer_group_id : of.customer_id;
  const own = ofGroup ? customerGroupCustomer.customer_group_id : customerGroupCustomer.customer_id;
  const named = ofGroup ? customerGroupCustomer.customer_id : customerGroupCustomer.customer_group_id;
  const pair = (id: string) =>
    ofGroup ? { customer_id: id, customer_group_id: ownId } : { customer_id: ownId, customer_group_id: id };
  if (add.length > 0)
    await tx
      .insert(customerGroupCustomer)
      .values(add.map((id) => ({ ...pair(id), created_by: createdBy })))
      .onConflictDoNothing();
  if (remove.length > 0) await tx.delete(customerGroupCustomer).where(and(eq(own, ownId), inArray(named, remove)));
}

/** Serializes address writes of one customer so two concurrent "make default" calls cannot both win. */
async function lockCustomer(tx: Db, customerId: string): Promise<void> {
  await liveRecords(tx, customer, "Customer").lock(customerId);
}

function customerConditions(filters: CustomerFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(customer.id, filters.id));
  if (filters.email?.length) out.push(inArray(customer.email, filters.email.map(normalizeEmail)));
  if (filters.has_account !== undefined) out.push(eq(customer.has_account, filters.has_account));
  if (filters.groups?.length) {
    out.push(
      sql`exists (select 1 from ${customerGroupCustomer} where ${customerGroupCustomer.customer_id} = ${customer.id} and ${inArray(customerGroupCustomer.customer_group_id, filters.groups)})`,
    );
  }
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
