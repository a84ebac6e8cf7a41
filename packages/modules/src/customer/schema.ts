import { boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { CountryCode, Email, OptionalMetadata, Password, Secret, Title, Strict } from "@kasse/core";
import { metadata, entityTable, parentId, liveUniqueIndex, createdAt, indexes, type ListFilters } from "@kasse/db";

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

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));
const Text = () => Nullable(Title());

const customerFields = {
  first_name: Text(),
  last_name: Text(),
  phone: Text(),
  // The contract names it `company`; Medusa clients send `company_name`: both are accepted.
  company: Text(),
  company_name: Text(),
  metadata: OptionalMetadata(),
};

/** Body of `POST /admin/customers`. */
export const CustomerCreate = Strict({ email: Email(), ...customerFields });
export type CustomerCreate = Static<typeof CustomerCreate>;

/** Body of `POST /admin/customers/{id}` and `POST /store/customers/me`: the create fields, all optional. */
export const CustomerUpdate = Strict({ email: Type.Optional(Email()), ...customerFields });
export type CustomerUpdate = Static<typeof CustomerUpdate>;

const addressFields = {
  address_name: Text(),
  is_default_shipping: Type.Optional(Type.Boolean()),
  is_default_billing: Type.Optional(Type.Boolean()),
  company: Text(),
  first_name: Text(),
  last_name: Text(),
  address_2: Text(),
  province: Text(),
  phone: Text(),
  metadata: OptionalMetadata(),
};
const Required = () => Title({ minLength: 1 });
// Upper case is accepted and stored lower case.
const Country = CountryCode;

/** Body of an address create: `address_1`, `city`, `postal_code`, `country_code` are required. */
export const AddressCreate = Strict({
  ...addressFields,
  address_1: Required(),
  city: Required(),
  postal_code: Required(),
  country_code: Country(),
});
export type AddressCreate = Static<typeof AddressCreate>;

/** Body of an address update: every field optional, but a required one cannot be cleared. */
export const AddressUpdate = Strict({
  ...addressFields,
  address_1: Type.Optional(Required()),
  city: Type.Optional(Required()),
  postal_code: Type.Optional(Required()),
  country_code: Type.Optional(Country()),
});
export type AddressUpdate = Static<typeof AddressUpdate>;

/** Body of `POST /admin/customer-groups`. */
export const CustomerGroupCreate = Strict({ name: Title({ minLength: 1 }), metadata: OptionalMetadata() });
export type CustomerGroupCreate = Static<typeof CustomerGroupCreate>;

/** Body of `POST /admin/customer-groups/{id}`. */
export const CustomerGroupUpdate = Type.Partial(CustomerGroupCreate, { additionalProperties: false });
export type CustomerGroupUpdate = Static<typeof CustomerGroupUpdate>;

/** Filters of `GET /admin/customers`. */
export interface CustomerFilters extends ListFilters {
  email?: string[];
  has_account?: boolean;
  groups?: string[];
  created_at?: import("@kasse/db").RangeFilter<Date>;
  updated_at?: import("@kasse/db").RangeFilter<Date>;
}

/** Filters of `GET /admin/customer-groups`. */
export interface CustomerGroupFilters extends ListFilters {
  name?: string[];
  /** Groups any of these customers belong to (Medusa's `customers[id]=`). */
  customer_id?: string[];
}

// Response schemas describe JSON, while services hand back Dates: the serializer writes them as ISO strings.
const Timestamp = () => Type.Unsafe<Date | string>({ type: "string", format: "date-time" });
const NullableTimestamp = () =>
  Type.Unsafe<Date | string | null>({ anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] });
const NullableText = () => Type.Union([Type.String(), Type.Null()]);
const MetaOut = () =>
  Type.Unsafe<Record<string, unknown> | null>({
    anyOf: [{ type: "object", additionalProperties: true }, { type: "null" }],
  });

/** An address as every response shows it. */
export const AddressResponse = Type.Partial(
  Type.Object({
    id: Type.String(),
    customer_id: Type.String(),
    address_name: NullableText(),
    is_default_shipping: Type.Boolean(),
    is_default_billing: Type.Boolean(),
    company: NullableText(),
    first_name: NullableText(),
    last_name: NullableText(),
    address_1: NullableText(),
    address_2: NullableText(),
    city: NullableText(),
    country_code: NullableText(),
    province: NullableText(),
    postal_code: NullableText(),
    phone: NullableText(),
    metadata: MetaOut(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    deleted_at: NullableTimestamp(),
  }),
);

/** A customer group as every response shows it. */
export const CustomerGroupResponse = Type.Partial(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    created_by: NullableText(),
    metadata: MetaOut(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    deleted_at: NullableTimestamp(),
  }),
);

/**
 * A customer as every response shows it. Declared so that nothing unlisted can leak: the
 * serializer drops any key not named here. Partial because `fields` may narrow it.
 */
export const CustomerResponse = Type.Partial(
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    first_name: NullableText(),
    last_name: NullableText(),
    phone: NullableText(),
    company: NullableText(),
    company_name: NullableText(),
    has_account: Type.Boolean(),
    metadata: MetaOut(),
    default_billing_address_id: NullableText(),
    default_shipping_address_id: NullableText(),
    addresses: Type.Array(AddressResponse),
    groups: Type.Array(CustomerGroupResponse),
    created_by: NullableText(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    deleted_at: NullableTimestamp(),
  }),
);

/** A customer as the Store API shows it to its owner: no groups, no `created_by` (admin views). */
export const StoreCustomerResponse = Type.Omit(CustomerResponse, ["groups", "created_by"]);

/**
 * Body of `POST /store/customers`: the customer fields, plus `password` for the one-call form
 * (docs/CONTRACT.md "Registration, both ways"); with a registration token the password is already set.
 */
export const StoreCustomerCreate = Strict({ ...CustomerCreate.properties, password: Type.Optional(Password()) });
export type StoreCustomerCreate = Static<typeof StoreCustomerCreate>;

/** Body of `POST /store/customers/me/email`: the address to move the account to (it is mailed a token). */
export const CustomerEmailChange = Strict({ email: Email() });

/** Body of `POST /store/customers/me/email/confirm`: the token mailed to the new address. */
export const CustomerEmailConfirm = Strict({ token: Secret({ minLength: 1 }) });

/** A requested email change as its customer sees it: the address waiting for its token, and until when. */
export const EmailChangeResponse = Strict({ email: Type.String(), expires_at: Type.String({ format: "date-time" }) });

/** Body of `POST /store/customers/me/password`. */
export const CustomerPasswordChange = Strict({ old_password: Secret({ minLength: 1 }), new_password: Password() });
export type CustomerPasswordChange = Static<typeof CustomerPasswordChange>;
