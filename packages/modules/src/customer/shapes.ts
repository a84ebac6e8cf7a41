import { Type, type Static } from "@sinclair/typebox";
import { CountryCode, Email, OptionalMetadata, Password, Secret, Title, Strict } from "@kasse/core";
import { MetadataView, OrNull, TimestampView, type ListFilters, type RangeFilter } from "@kasse/db";

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
export const CustomerUpdate = Type.Partial(CustomerCreate, { additionalProperties: false });
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

/** Body of an address create: `address_1`, `city`, `postal_code`, `country_code` are required. */
export const AddressCreate = Strict({
  ...addressFields,
  address_1: Required(),
  city: Required(),
  postal_code: Required(),
  // Upper case is accepted and stored lower case.
  country_code: CountryCode(),
});
export type AddressCreate = Static<typeof AddressCreate>;

/** Body of an address update: every field optional, but a required one cannot be cleared. */
export const AddressUpdate = Type.Partial(AddressCreate, { additionalProperties: false });
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
  created_at?: RangeFilter<Date>;
  updated_at?: RangeFilter<Date>;
}

/** Filters of `GET /admin/customer-groups`. */
export interface CustomerGroupFilters extends ListFilters {
  name?: string[];
  /** Groups any of these customers belong to (Medusa's `customers[id]=`). */
  customer_id?: string[];
}

// Response schemas describe JSON, while services hand back Dates: the serializer writes them as ISO strings.
const NullableTimestamp = () => OrNull(TimestampView());
const NullableText = () => OrNull(Type.String());

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
    metadata: MetadataView(),
    created_at: TimestampView(),
    updated_at: TimestampView(),
    deleted_at: NullableTimestamp(),
  }),
);

/** A customer group as every response shows it. */
export const CustomerGroupResponse = Type.Partial(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    created_by: NullableText(),
    metadata: MetadataView(),
    created_at: TimestampView(),
    updated_at: TimestampView(),
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
    metadata: MetadataView(),
    default_billing_address_id: NullableText(),
    default_shipping_address_id: NullableText(),
    addresses: Type.Array(AddressResponse),
    groups: Type.Array(CustomerGroupResponse),
    created_by: NullableText(),
    created_at: TimestampView(),
    updated_at: TimestampView(),
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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type CustomerAddressRow, type CustomerGroupRow, type CustomerRow } from "./schema";
