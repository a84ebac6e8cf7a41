import { boolean, index, pgTable, text, uniqueIndex } from "@kasse/db";
import { metadata, entityTable, parentId, liveUniqueIndex, createdAt, indexes } from "@kasse/db";

/** Customers: registered (`has_account`) or created by an admin / a guest checkout. */
export const customer = entityTable(
  "customer",
  {
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    phone: text("phone"),
    company_name: text("company_name"),
    has_account: boolean("has_account").notNull().default(false),
    created_by: text("created_by"),
    metadata: metadata(),
  },
  (t) => [
    // As Medusa: one live customer per email and account kind, so a guest and a registered customer may share an email.
    liveUniqueIndex("customer_email_has_account_uq").on(t.email, t.has_account),
    ...indexes("customer", { created_at: t.created_at, updated_at: t.updated_at }),
  ],
);

/** A customer's saved addresses; at most one default shipping and one default billing per customer. */
export const customerAddress = entityTable(
  "customer_address",
  {
    customer_id: parentId("customer_id", () => customer.id),
    address_name: text("address_name"),
    is_default_shipping: boolean("is_default_shipping").notNull().default(false),
    is_default_billing: boolean("is_default_billing").notNull().default(false),
    company: text("company"),
    first_name: text("first_name"),
    last_name: text("last_name"),
    address_1: text("address_1"),
    address_2: text("address_2"),
    city: text("city"),
    country_code: text("country_code"),
    province: text("province"),
    postal_code: text("postal_code"),
    phone: text("phone"),
    metadata: metadata(),
  },
  (t) => [
    index("customer_address_customer_id_idx").on(t.customer_id),
    liveUniqueIndex("customer_address_default_shipping_uq", "is_default_shipping").on(t.customer_id),
    liveUniqueIndex("customer_address_default_billing_uq", "is_default_billing").on(t.customer_id),
  ],
);

/** Customer groups: segments used by price lists and promotions. */
export const customerGroup = entityTable(
  "customer_group",
  {
    name: text("name").notNull(),
    created_by: text("created_by"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("customer_group_name_uq").on(t.name),
    index("customer_group_created_at_idx").on(t.created_at),
  ],
);

/** Group membership: one row per (customer, group). */
export const customerGroupCustomer = pgTable(
  "customer_group_customer",
  {
    customer_id: parentId("customer_id", () => customer.id),
    customer_group_id: parentId("customer_group_id", () => customerGroup.id),
    created_by: text("created_by"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("customer_group_customer_uq").on(t.customer_group_id, t.customer_id),
    index("customer_group_customer_customer_idx").on(t.customer_id),
  ],
);
export type CustomerRow = typeof customer.$inferSelect;
export type CustomerAddressRow = typeof customerAddress.$inferSelect;
export type CustomerGroupRow = typeof customerGroup.$inferSelect;
