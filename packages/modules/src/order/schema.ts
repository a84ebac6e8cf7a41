import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static, type TSchema, type TString } from "@sinclair/typebox";
import {
  Amount,
  Code,
  LocaleCode,
  Count,
  CountryCode,
  CurrencyCode,
  Email,
  Handle,
  Id,
  LongText,
  MoneyView,
  OptionalMetadata,
  ProviderData,
  Title,
  Url,
} from "@kasse/core";
import {
  fileUrl,
  metadata,
  money,
  storedTotals,
  RowView,
  View,
  entityTable,
  parentId,
  indexes,
  liveUniqueIndex,
  timestamptz,
  createdAt,
  storedAddress,
  type StoredAddress,
  type ListFilters,
} from "@kasse/db";

/** Order `status`: the contract's set plus Medusa's `archived` and `draft`. */
export const ORDER_STATUSES = ["pending", "completed", "canceled", "requires_action", "archived", "draft"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Order `payment_status`: Medusa's set (a superset of the contract's). */
export const PAYMENT_STATUSES = [
  "not_paid",
  "awaiting",
  "authorized",
  "partially_authorized",
  "captured",
  "partially_captured",
  "partially_refunded",
  "refunded",
  "canceled",
  "requires_action",
] as const;
export type OrderPaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Order `fulfillment_status`: the contract's set. */
export const FULFILLMENT_STATUSES = [
  "not_fulfilled",
  "partially_fulfilled",
  "fulfilled",
  "partially_shipped",
  "shipped",
  "partially_delivered",
  "delivered",
  "canceled",
] as const;
export type OrderFulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/** An address as the order keeps it: a copy, so later edits of the customer's book don't change it. */
export type OrderAddress = StoredAddress;

/**
 * Medusa's order credit line: money the merchant credits the order (a goodwill gesture, a
 * settlement made elsewhere), owed no more by the customer. Written by a confirmed `credit_line`
 * order change (`version`: the order version it made).
 */
export interface OrderCreditLine {
  id: string;
  order_id: string;
  /** Integer minor units of the order's currency, above zero. */
  amount: number;
  reference: string;
  reference_id: string;
  metadata: Record<string, unknown> | null;
  version: number;
  created_at: string;
}

/**
 * An order. `display_id` comes from an identity column (a PostgreSQL sequence), so concurrent
 * checkouts never share one. Totals are stored as computed at checkout (the order is a record of
 * what was bought, not recomputed from live prices).
 */
export const order = entityTable(
  "order",
  {
    display_id: integer("display_id").notNull().generatedAlwaysAsIdentity(),
    status: text("status").$type<OrderStatus>().notNull().default("pending"),
    payment_status: text("payment_status").$type<OrderPaymentStatus>().notNull().default("not_paid"),
    fulfillment_status: text("fulfillment_status").$type<OrderFulfillmentStatus>().notNull().default("not_fulfilled"),
    cart_id: text("cart_id"),
    customer_id: text("customer_id"),
    email: text("email"),
    currency_code: text("currency_code").notNull(),
    region_id: text("region_id"),
    sales_channel_id: text("sales_channel_id"),
    /** The shopper's locale (BCP 47), copied from the cart at checkout, as Medusa's order carries it. */
    locale: text("locale"),
    shipping_address: storedAddress("shipping_address"),
    billing_address: storedAddress("billing_address"),
    /** Payment collections paying for this order (ids of the payment module's rows). */
    payment_collection_ids: jsonb("payment_collection_ids").$type<string[]>().notNull().default([]),
    /** Its credit lines, oldest first (few per order: kept on the row, read with it). */
    credit_lines: jsonb("credit_lines").$type<OrderCreditLine[]>().notNull().default([]),
    /** Medusa's order version: 1 as placed, one more for each confirmed change (an order edit). */
    version: integer("version").notNull().default(1),
    ...storedTotals(),
    canceled_at: timestamptz("canceled_at"),
    metadata: metadata(),
  },
  (t) => [
    ...indexes("order", {
      display_id: t.display_id,
      status: t.status,
      payment_status: t.payment_status,
      fulfillment_status: t.fulfillment_status,
      customer: t.customer_id,
      email: t.email,
      region: t.region_id,
      sales_channel: t.sales_channel_id,
      cart: t.cart_id,
    }),
    // The admin's list in its default order (`created_at`, then `id`) over the live rows: its first
    // page reads 15 index entries instead of sorting every order, and its count is an index-only scan.
    index("order_live_created_at_idx")
      .on(t.created_at, t.id)
      .where(sql`deleted_at is null`),
    // `/admin/payments/{id}/...` finds the order paying with a collection: `payment_collection_ids @> [id]`.
    index("order_payment_collections_idx").using("gin", t.payment_collection_ids),
  ],
);

/**
 * A bought line: a snapshot of the variant and price at checkout, the cart line it came from
 * (`cart_line_item_id`, so checkout reservations made for the cart line are found for it), and how
 * many units have been fulfilled, shipped, delivered, asked back and received back.
 */
export const orderLineItem = entityTable(
  "order_line_item",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    /** Position in the order as bought (lines are created in one statement, so timestamps tie). */
    rank: integer("rank").notNull().default(0),
    cart_line_item_id: text("cart_line_item_id"),
    variant_id: text("variant_id"),
    product_id: text("product_id"),
    title: text("title").notNull(),
    subtitle: text("subtitle"),
    thumbnail: fileUrl("thumbnail"),
    variant_title: text("variant_title"),
    variant_sku: text("variant_sku"),
    product_title: text("product_title"),
    product_handle: text("product_handle"),
    requires_shipping: boolean("requires_shipping").notNull().default(true),
    is_tax_inclusive: boolean("is_tax_inclusive").notNull().default(false),
    quantity: integer("quantity").notNull(),
    unit_price: money("unit_price").notNull(),
    subtotal: money("subtotal").notNull(),
    tax_total: money("tax_total").notNull().default(0),
    discount_total: money("discount_total").notNull().default(0),
    total: money("total").notNull(),
    fulfilled_quantity: integer("fulfilled_quantity").notNull().default(0),
    shipped_quantity: integer("shipped_quantity").notNull().default(0),
    delivered_quantity: integer("delivered_quantity").notNull().default(0),
    return_requested_quantity: integer("return_requested_quantity").notNull().default(0),
    return_received_quantity: integer("return_received_quantity").notNull().default(0),
    /** Of the units received back, those kept out of stock (damaged: Medusa's dismissed items). */
    return_dismissed_quantity: integer("return_dismissed_quantity").notNull().default(0),
    metadata: metadata(),
  },
  (t) => [...indexes("order_line_item", { order: t.order_id, cart_line: t.cart_line_item_id, variant: t.variant_id })],
);

/**
 * The promotions an order used at checkout and what each gave it (the sum of its adjustments, in
 * the order's currency): what the promotion module's budgets counted for this order, so `kasse
 * check` can hold a campaign's `used` against the orders that used it.
 */
export const orderPromotion = pgTable(
  "order_promotion",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    promotion_id: text("promotion_id").notNull(),
    amount: money("amount").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.order_id, t.promotion_id] }),
    index("order_promotion_promotion_idx").on(t.promotion_id),
  ],
);

/** How the order ships: the chosen option's name and price as they were at checkout. */
export const orderShippingMethod = entityTable(
  "order_shipping_method",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    rank: integer("rank").notNull().default(0),
    shipping_option_id: text("shipping_option_id"),
    name: text("name").notNull(),
    amount: money("amount").notNull(),
    is_tax_inclusive: boolean("is_tax_inclusive").notNull().default(false),
    subtotal: money("subtotal").notNull(),
    tax_total: money("tax_total").notNull().default(0),
    discount_total: money("discount_total").notNull().default(0),
    total: money("total").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    metadata: metadata(),
  },
  (t) => [index("order_shipping_method_order_idx").on(t.order_id)],
);

/**
 * The append-only log of every change to an order, by any workflow or admin: who (actor), when,
 * what (action) and the changed fields before and after. Rows are only ever inserted.
 */
export const orderChange = pgTable(
  "order_change",
  {
    id: text("id").primaryKey(),
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    actor_type: text("actor_type"),
    actor_id: text("actor_id"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    created_at: createdAt(),
  },
  (t) => [index("order_change_order_idx").on(t.order_id, t.created_at)],
);

/** Why customers send items back (Medusa's return reasons), chosen per returned line. */
export const returnReason = entityTable(
  "return_reason",
  {
    value: text("value").notNull(),
    label: text("label").notNull(),
    description: text("description"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("return_reason_value_uq").on(t.value),
    index("return_reason_created_at_idx").on(t.created_at),
  ],
);

/** A return's `status` (Medusa's names): asked for, some or all units back, or called off. */
export const RETURN_STATUSES = ["requested", "partially_received", "received", "canceled"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** How a return comes back: a return shipping option, and what it costs the shopper (taken off the refund). */
export interface ReturnShipping {
  shipping_option_id: string;
  name: string;
  amount: number;
  /** The order's: what `amount` is in (the return's own answers carry no other currency). */
  currency_code: string;
}

/** A return's shipping while its request is pending: Medusa's `SHIPPING_ADD` action of the return. */
export type ReturnShippingAction = ReturnShipping & { id: string; internal_note: string | null; created_at: string };

/** A return of fulfilled units of an order, received back into stock at `location_id`. */
export const orderReturn = entityTable(
  "order_return",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    status: text("status").$type<ReturnStatus>().notNull().default("requested"),
    location_id: text("location_id").notNull(),
    /** Its return shipping method, if any: what it costs comes off what its receipts refund. */
    shipping: jsonb("shipping").$type<ReturnShipping>(),
    received_at: timestamptz("received_at"),
    canceled_at: timestamptz("canceled_at"),
    /** The exchange whose inbound units it brings back (Medusa's): settled by the exchange, not credited. */
    exchange_id: text("exchange_id"),
    /** The claim whose inbound units it brings back (Medusa's): settled by the claim, not credited. */
    claim_id: text("claim_id"),
    metadata: metadata(),
  },
  (t) => [index("order_return_order_idx").on(t.order_id)],
);

/** One returned line: how many units were asked back and how many came back. */
export const orderReturnItem = entityTable(
  "order_return_item",
  {
    return_id: parentId("return_id", () => orderReturn.id, { onDelete: "cascade" }),
    line_item_id: text("line_item_id").notNull(),
    quantity: integer("quantity").notNull(),
    received_quantity: integer("received_quantity").notNull().default(0),
    /** Of the units received, those kept out of stock (damaged). */
    damaged_quantity: integer("damaged_quantity").notNull().default(0),
    reason_id: text("reason_id"),
  },
  (t) => [index("order_return_item_return_idx").on(t.return_id)],
);

export type ReturnReasonRow = typeof returnReason.$inferSelect;

/**
 * Medusa's order-change protocol for returns: a request being put together (`return_request`: the
 * return's id is reserved, its items are `RETURN_ITEM` actions) or a receipt being counted
 * (`return_receive` of an existing return: `RECEIVE_RETURN_ITEM` actions). Confirming one runs the
 * create-return or receive-return saga with what its actions say; canceling one deletes it. At most
 * one is pending per order.
 */
export const RETURN_CHANGE_TYPES = ["return_request", "return_receive"] as const;
export type ReturnChangeType = (typeof RETURN_CHANGE_TYPES)[number];
export const RETURN_CHANGE_STATUSES = ["pending", "confirmed"] as const;
export type ReturnChangeStatus = (typeof RETURN_CHANGE_STATUSES)[number];
export type ReturnChangeActionName = "RETURN_ITEM" | "RECEIVE_RETURN_ITEM" | "RECEIVE_DAMAGED_RETURN_ITEM";

/** One action of a pending return change: an order line asked back (or counted back) and how many. */
export interface ReturnChangeAction {
  id: string;
  action: ReturnChangeActionName;
  /** The order line. */
  item_id: string;
  quantity: number;
  reason_id: string | null;
  internal_note: string | null;
  created_at: string;
}

export const orderReturnChange = entityTable(
  "order_return_change",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    /** The return asked for (its id reserved until the request is confirmed) or being received. */
    return_id: text("return_id").notNull(),
    change_type: text("change_type").$type<ReturnChangeType>().notNull(),
    status: text("status").$type<ReturnChangeStatus>().notNull().default("pending"),
    /** Where a requested return's units go back into stock (set while the request is pending). */
    location_id: text("location_id"),
    description: text("description"),
    internal_note: text("internal_note"),
    created_by: text("created_by"),
    confirmed_by: text("confirmed_by"),
    confirmed_at: timestamptz("confirmed_at"),
    actions: jsonb("actions").$type<ReturnChangeAction[]>().notNull().default([]),
    /** A pending request's return shipping method (its `SHIPPING_ADD` action). */
    shipping: jsonb("shipping").$type<ReturnShippingAction>(),
    metadata: metadata(),
  },
  (t) => [
    uniqueIndex("order_return_change_pending_uq")
      .on(t.order_id)
      .where(sql`status = 'pending'`),
    index("order_return_change_return_idx").on(t.return_id),
  ],
);
export type OrderReturnChangeRow = typeof orderReturnChange.$inferSelect;
export type OrderReturnChangeInsert = typeof orderReturnChange.$inferInsert;

/** Medusa's order change kinds (`change_type`); order edits are the ones Kasse builds so far. */
export const ORDER_CHANGE_TYPES = [
  "edit",
  "exchange",
  "claim",
  "return_request",
  "return_receive",
  "credit_line",
] as const;
export type OrderChangeType = (typeof ORDER_CHANGE_TYPES)[number];
/** Medusa's order change statuses: `pending` and `requested` are active, the others final. */
export const ORDER_CHANGE_STATUSES = ["pending", "requested", "confirmed", "declined", "canceled"] as const;
export type OrderChangeStatus = (typeof ORDER_CHANGE_STATUSES)[number];
/**
 * Medusa's action names that order changes write: a line added (its later updates and removal change
 * or drop that action), an existing line's quantity or price, a shipping method added or removed (a
 * canceled exchange's or claim's), a claimed item, a promotion code added to or taken off a draft.
 */
export const ORDER_CHANGE_ACTIONS = [
  "ITEM_ADD",
  "ITEM_UPDATE",
  "SHIPPING_ADD",
  "SHIPPING_REMOVE",
  "WRITE_OFF_ITEM",
  "CREDIT_LINE_ADD",
  "PROMOTION_ADD",
  "PROMOTION_REMOVE",
] as const;
export type OrderChangeActionName = (typeof ORDER_CHANGE_ACTIONS)[number];

/** A line added by an edit: the variant's snapshot and price, taken when the action was added. */
export interface AddedItemDetails {
  /** Null for a custom line (a draft order's line with a title and price of its own). */
  variant_id: string | null;
  product_id: string | null;
  title: string;
  subtitle: string | null;
  thumbnail: string | null;
  variant_title: string | null;
  variant_sku: string | null;
  product_title: string | null;
  product_handle: string | null;
  requires_shipping: boolean;
  is_tax_inclusive: boolean;
  quantity: number;
  unit_price: number;
  /** The tax rate (percent, summed over the rates that apply) at the order's shipping address. */
  tax_rate: number;
}

/** A shipping method added by an edit, priced when the action was added. */
export interface AddedShippingDetails {
  shipping_option_id: string;
  name: string;
  amount: number;
  is_tax_inclusive: boolean;
  tax_rate: number;
  /** Set on an exchange's or claim's inbound method: the return it brings back. */
  return_id?: string | null;
}

/** Why a claimed item is claimed (Medusa's claim reasons). */
export const CLAIM_REASONS = ["missing_item", "wrong_item", "production_failure", "other"] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];

/** One typed action of an order change: what it does and to which line or method (`reference_id`). */
export type OrderChangeActionBody =
  | { action: "ITEM_ADD"; details: AddedItemDetails }
  | {
      action: "ITEM_UPDATE";
      /** The line's new quantity and unit price, and its tax rate when the action was written. */
      details: { quantity: number; unit_price: number; tax_rate: number };
    }
  | { action: "SHIPPING_ADD"; details: AddedShippingDetails }
  /** An existing shipping method taken off (`reference_id`), with the amount it charged. */
  | { action: "SHIPPING_REMOVE"; details: { amount: number } }
  | {
      action: "WRITE_OFF_ITEM";
      /** A claimed item: units of an existing line the customer never got whole (a claim's). */
      details: { quantity: number; reason: ClaimReason | null; note: string | null };
    }
  | {
      action: "CREDIT_LINE_ADD";
      /** The credit line written (its id is the action's `reference_id`). */
      details: Pick<OrderCreditLine, "amount" | "reference" | "reference_id" | "metadata">;
    }
  /** A draft's promotion code added or taken off (`reference_id`: the promotion). */
  | { action: "PROMOTION_ADD" | "PROMOTION_REMOVE"; details: { code: string } };

export type OrderChangeAction = OrderChangeActionBody & {
  id: string;
  /** `order_item` (an existing line), `shipping_method`; an added line or method is referenced by its action's id. */
  reference: "order_item" | "shipping_method" | "credit_line" | "promotion";
  reference_id: string;
  internal_note: string | null;
  created_at: string;
};

/**
 * Medusa's order change (the log table `order_change` is Kasse's activity log, so this one is
 * `order_version_change`): a set of typed actions on an order that, once confirmed, makes its next
 * version. At most one is active (`pending` or `requested`) per order.
 */
export const orderVersionChange = entityTable(
  "order_version_change",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    change_type: text("change_type").$type<OrderChangeType>().notNull(),
    status: text("status").$type<OrderChangeStatus>().notNull().default("pending"),
    /** The version the order will have once this change is confirmed. */
    version: integer("version").notNull(),
    description: text("description"),
    internal_note: text("internal_note"),
    created_by: text("created_by"),
    requested_by: text("requested_by"),
    requested_at: timestamptz("requested_at"),
    confirmed_by: text("confirmed_by"),
    confirmed_at: timestamptz("confirmed_at"),
    declined_by: text("declined_by"),
    declined_reason: text("declined_reason"),
    declined_at: timestamptz("declined_at"),
    canceled_by: text("canceled_by"),
    canceled_at: timestamptz("canceled_at"),
    actions: jsonb("actions").$type<OrderChangeAction[]>().notNull().default([]),
    /** Asked with the request: the customer is not told of the change when it is confirmed. */
    no_notification: boolean("no_notification").notNull().default(false),
    metadata: metadata(),
  },
  (t) => [
    uniqueIndex("order_version_change_active_uq")
      .on(t.order_id)
      .where(sql`status in ('pending', 'requested')`),
    index("order_version_change_order_idx").on(t.order_id, t.created_at),
  ],
);
export type OrderVersionChangeRow = typeof orderVersionChange.$inferSelect;

/** What an order was at a version, kept when a confirmed change replaces it. */
export const orderVersion = pgTable(
  "order_version",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** The change that ended this version. */
    change_id: text("change_id").notNull(),
    items: jsonb("items").$type<Array<Record<string, unknown>>>().notNull(),
    shipping_methods: jsonb("shipping_methods").$type<Array<Record<string, unknown>>>().notNull(),
    totals: jsonb("totals").$type<Record<string, number>>().notNull(),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.order_id, t.version] })],
);

/** What kind of after-sale change an `order_claim_exchange` is, and a claim's type (Medusa's). */
export type ClaimExchangeKind = "exchange" | "claim";
export const CLAIM_TYPES = ["refund", "replace"] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

/**
 * Medusa's exchanges and claims: each is one order change (`change_id`, of type `exchange` or
 * `claim`) whose inbound units are a return (`return_id`, reserved at the start) and whose
 * outbound units are new lines of the order's next version. Confirmed, it keeps what it settled.
 */
export const orderClaimExchange = entityTable(
  "order_claim_exchange",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ClaimExchangeKind>().notNull(),
    /** A claim's type: the claimed value refunded, or replaced by outbound lines at no charge. */
    type: text("type").$type<ClaimType>(),
    change_id: text("change_id").notNull(),
    return_id: text("return_id").notNull(),
    /** What the customer owes (negative: is owed) once confirmed. */
    difference_due: money("difference_due"),
    /** A refund claim's claimed value, once confirmed. */
    refund_amount: money("refund_amount"),
    /** The order lines its outbound items became, once confirmed. */
    additional_items: jsonb("additional_items")
      .$type<Array<{ item_id: string; quantity: number }>>()
      .notNull()
      .default([]),
    no_notification: boolean("no_notification").notNull().default(false),
    /** The collection its confirmation attached for the difference owed, if any (removed, unpaid, on cancel). */
    payment_collection_id: text("payment_collection_id"),
    created_by: text("created_by"),
    canceled_by: text("canceled_by"),
    canceled_at: timestamptz("canceled_at"),
    metadata: metadata(),
  },
  (t) => [
    index("order_claim_exchange_order_idx").on(t.order_id, t.kind),
    uniqueIndex("order_claim_exchange_change_uq").on(t.change_id),
    index("order_claim_exchange_return_idx").on(t.return_id),
  ],
);
export type OrderClaimExchangeRow = typeof orderClaimExchange.$inferSelect;

/** A transfer request's `status`: waiting for the order's email to answer, or how it ended. */
export const TRANSFER_STATUSES = ["requested", "accepted", "declined", "canceled"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * A signed-in customer's request to take over an order (a guest order placed with an email they
 * own). The order's email receives a single-use, expiring token; only its SHA-256 is stored.
 * Answering it (accept or decline) ends the request; a newer request cancels an older one.
 */
export const orderTransferRequest = entityTable(
  "order_transfer_request",
  {
    order_id: parentId("order_id", () => order.id, { onDelete: "cascade" }),
    /** The customer the order goes to when the request is accepted. */
    customer_id: text("customer_id").notNull(),
    /** The order's email when requested: where the token was sent. */
    email: text("email"),
    token_hash: text("token_hash").notNull(),
    status: text("status").$type<TransferStatus>().notNull().default("requested"),
    expires_at: timestamptz("expires_at").notNull(),
    answered_at: timestamptz("answered_at"),
  },
  (t) => [
    uniqueIndex("order_transfer_request_token_uq").on(t.token_hash),
    index("order_transfer_request_order_idx").on(t.order_id, t.status),
  ],
);

export type OrderTransferRequestRow = typeof orderTransferRequest.$inferSelect;
export type OrderReturnRow = typeof orderReturn.$inferSelect;
export type OrderReturnItemRow = typeof orderReturnItem.$inferSelect;
/** A return with its items (`item_id`: the order line, as Medusa names it). */
export type OrderReturn = OrderReturnRow & { items: Array<OrderReturnItemRow & { item_id: string }> };

export type OrderRow = typeof order.$inferSelect;
export type OrderLineItemRow = typeof orderLineItem.$inferSelect;
export type OrderShippingMethodRow = typeof orderShippingMethod.$inferSelect;
export type OrderChangeRow = typeof orderChange.$inferSelect;

const Optional = (schema: TString) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = () => Optional(Title());
const Meta = OptionalMetadata;
const Money = Amount;

/** An address in an order write (the create snapshot or `POST /admin/orders/{id}`). */
export const OrderAddressInput = Type.Object(
  {
    first_name: Text(),
    last_name: Text(),
    company: Text(),
    address_1: Text(),
    address_2: Text(),
    city: Text(),
    postal_code: Text(),
    province: Text(),
    country_code: Optional(CountryCode()),
    phone: Text(),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type OrderAddressInput = Static<typeof OrderAddressInput>;

/** One line of the checkout snapshot an order is created from. */
export const OrderLineItemInput = Type.Object(
  {
    cart_line_item_id: Optional(Id()),
    variant_id: Optional(Id()),
    product_id: Optional(Id()),
    title: Title({ minLength: 1 }),
    subtitle: Text(),
    thumbnail: Optional(Url()),
    variant_title: Text(),
    variant_sku: Optional(Code()),
    product_title: Text(),
    product_handle: Optional(Handle()),
    requires_shipping: Type.Optional(Type.Boolean()),
    is_tax_inclusive: Type.Optional(Type.Boolean()),
    quantity: Count({ minimum: 1 }),
    unit_price: Money(),
    subtotal: Money(),
    tax_total: Type.Optional(Money()),
    discount_total: Type.Optional(Money()),
    total: Money(),
    metadata: Meta(),
  },
  { additionalProperties: false },
);

/** One shipping method of the checkout snapshot. */
export const OrderShippingMethodInput = Type.Object(
  {
    shipping_option_id: Optional(Id()),
    name: Title({ minLength: 1 }),
    amount: Money(),
    is_tax_inclusive: Type.Optional(Type.Boolean()),
    subtotal: Money(),
    tax_total: Type.Optional(Money()),
    discount_total: Type.Optional(Money()),
    total: Money(),
    data: Type.Optional(ProviderData()),
    metadata: Meta(),
  },
  { additionalProperties: false },
);

/** The totals of the checkout snapshot (as the cart computed them). */
export const OrderTotalsInput = Type.Object(
  {
    item_subtotal: Money(),
    item_tax_total: Money(),
    item_discount_total: Money(),
    item_total: Money(),
    shipping_subtotal: Money(),
    shipping_tax_total: Money(),
    shipping_discount_total: Money(),
    shipping_total: Money(),
    subtotal: Money(),
    discount_total: Money(),
    tax_total: Money(),
    total: Money(),
  },
  { additionalProperties: false },
);

/**
 * What an order is created from: a cart-like snapshot (checkout passes the completed cart's
 * values), the payment collections paying for it and their status at checkout.
 */
export const OrderCreate = Type.Object(
  {
    cart_id: Optional(Id()),
    customer_id: Optional(Id()),
    email: Optional(Email()),
    currency_code: CurrencyCode(),
    region_id: Optional(Id()),
    sales_channel_id: Optional(Id()),
    locale: Optional(LocaleCode()),
    shipping_address: Type.Optional(Type.Union([OrderAddressInput, Type.Null()])),
    billing_address: Type.Optional(Type.Union([OrderAddressInput, Type.Null()])),
    items: Type.Array(OrderLineItemInput, { minItems: 1 }),
    shipping_methods: Type.Optional(Type.Array(OrderShippingMethodInput)),
    totals: OrderTotalsInput,
    payment_collection_ids: Type.Optional(Type.Array(Id({ minLength: 1 }))),
    /** The promotions used at checkout and what each gave the order (see `orderPromotion`). */
    promotions: Type.Optional(
      Type.Array(
        Type.Object({ promotion_id: Id({ minLength: 1 }), amount: Amount() }, { additionalProperties: false }),
      ),
    ),
    payment_status: Type.Optional(Type.Union(PAYMENT_STATUSES.map((s) => Type.Literal(s)))),
    status: Type.Optional(
      Type.Union([Type.Literal("pending"), Type.Literal("requires_action"), Type.Literal("draft")]),
    ),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type OrderCreate = Static<typeof OrderCreate>;

/** Body of `POST /admin/orders/{id}`. */
export const OrderUpdate = Type.Object(
  {
    email: Type.Optional(Email()),
    shipping_address: Type.Optional(OrderAddressInput),
    billing_address: Type.Optional(OrderAddressInput),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type OrderUpdate = Static<typeof OrderUpdate>;

/** Who made a change, for the `order_change` log. */
export interface OrderActor {
  actor_type: string | null;
  actor_id: string | null;
}

/** Filters of `GET /admin/orders` (and the store's own-orders list). */
export interface OrderFilters extends ListFilters {
  status?: string[];
  payment_status?: string[];
  fulfillment_status?: string[];
  sales_channel_id?: string[];
  customer_id?: string[];
  email?: string[];
  region_id?: string[];
  created_at?: import("@kasse/db").RangeFilter<Date>;
  updated_at?: import("@kasse/db").RangeFilter<Date>;
  /** Draft orders only (the draft-order list); otherwise drafts are left out, as Medusa's order lists do. */
  is_draft_order?: boolean;
}

/** The `orders` summary on customer views, declared for the customer response schemas. */
export const OrderSummaryResponse = Type.Object({
  id: Type.String(),
  display_id: Type.Integer(),
  status: Type.String(),
  payment_status: Type.String(),
  fulfillment_status: Type.String(),
  currency_code: Type.String(),
  total: MoneyView(),
  created_at: Type.Unsafe<Date | string>({ type: "string", format: "date-time" }),
});

/** Body of `POST /admin/return-reasons`. */
export const ReturnReasonCreate = Type.Object(
  {
    value: Code({ minLength: 1 }),
    label: Title({ minLength: 1 }),
    description: Optional(LongText()),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type ReturnReasonCreate = Static<typeof ReturnReasonCreate>;

/** Body of `POST /admin/return-reasons/{id}`. */
export const ReturnReasonUpdate = Type.Partial(ReturnReasonCreate, { additionalProperties: false });
export type ReturnReasonUpdate = Static<typeof ReturnReasonUpdate>;

/** Body of `POST /admin/orders/{id}/returns` (docs/CONTRACT.md). */
export const ReturnCreate = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }), reason_id: Optional(Id({ minLength: 1 })) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    location_id: Id({ minLength: 1 }),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type ReturnCreate = Static<typeof ReturnCreate>;
/**
 * A return as the flows request it: the body above and, priced by them, its return shipping; an
 * exchange's or claim's inbound return names it (Medusa's `exchange_id` / `claim_id`).
 */
export type ReturnCreateInput = ReturnCreate & {
  shipping?: ReturnShipping | null;
  exchange_id?: string | null;
  claim_id?: string | null;
};

/**
 * Body of `POST /admin/orders/{id}/returns/{return_id}/receive` (and `/admin/returns/{id}/receive`):
 * which order lines came back and how many (`id` is the order line's, as in Medusa's receive-items).
 * Without `items`, every unit still outstanding is received.
 */
export const ReturnReceive = Type.Object(
  {
    items: Type.Optional(
      Type.Array(
        Type.Object({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }) }, { additionalProperties: false }),
        { minItems: 1, maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ReturnReceive = Static<typeof ReturnReceive>;

const Note = () => Type.Optional(Type.Union([LongText(), Type.Null()]));

/** Body of `POST /admin/returns` in Medusa's form: begins a return request (no items yet). */
export const ReturnRequestBegin = Type.Object(
  {
    order_id: Id({ minLength: 1 }),
    location_id: Type.Optional(Id({ minLength: 1 })),
    description: Note(),
    internal_note: Note(),
    /** Medusa's flag to silence the customer's notice; Kasse sends none for a return. */
    no_notification: Type.Optional(Type.Boolean()),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type ReturnRequestBegin = Static<typeof ReturnRequestBegin>;

/** Body of `POST /admin/returns/{id}` while its request is pending. */
export const ReturnRequestUpdate = Type.Object(
  {
    location_id: Type.Optional(Id({ minLength: 1 })),
    no_notification: Type.Optional(Type.Boolean()),
    metadata: Meta(),
  },
  { additionalProperties: false },
);
export type ReturnRequestUpdate = Static<typeof ReturnRequestUpdate>;

/** Body of `POST /admin/returns/{id}/request-items`: order lines to ask back (`RETURN_ITEM` actions). */
export const ReturnRequestItems = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Id({ minLength: 1 }),
          quantity: Count({ minimum: 1 }),
          reason_id: Optional(Id({ minLength: 1 })),
          description: Note(),
          internal_note: Note(),
          metadata: Meta(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type ReturnRequestItems = Static<typeof ReturnRequestItems>;

/** Body of `POST /admin/returns/{id}/request-items/{action_id}`. */
export const ReturnRequestItemUpdate = Type.Object(
  { quantity: Type.Optional(Count({ minimum: 1 })), reason_id: Optional(Id({ minLength: 1 })), internal_note: Note() },
  { additionalProperties: false },
);
export type ReturnRequestItemUpdate = Static<typeof ReturnRequestItemUpdate>;

/** Body of `POST /admin/returns/{id}/receive-items`: order lines counted back (`RECEIVE_RETURN_ITEM` actions). */
export const ReturnReceiveItems = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }), description: Note(), internal_note: Note() },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type ReturnReceiveItems = Static<typeof ReturnReceiveItems>;

/** Body of `POST /admin/returns/{id}/receive-items/{action_id}`. */
export const ReturnReceiveItemUpdate = Type.Object(
  { quantity: Type.Optional(Count({ minimum: 1 })), internal_note: Note() },
  { additionalProperties: false },
);
export type ReturnReceiveItemUpdate = Static<typeof ReturnReceiveItemUpdate>;

/** Body of `POST /admin/returns/{id}/request` and `…/receive/confirm`. */
export const ReturnChangeConfirm = Type.Object(
  { no_notification: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

// ---- Responses ------------------------------------------------------------------------------

/** A line of an order, with its fulfilled/shipped/delivered/returned quantities also under `detail`. */
export const OrderLineItemView = RowView(orderLineItem, {
  detail: View({
    quantity: Type.Integer(),
    fulfilled_quantity: Type.Integer(),
    shipped_quantity: Type.Integer(),
    delivered_quantity: Type.Integer(),
    return_requested_quantity: Type.Integer(),
    return_received_quantity: Type.Integer(),
    /** Units received damaged and kept out of stock (not counted in `return_received_quantity` here, as in Medusa). */
    return_dismissed_quantity: Type.Integer(),
  }),
});
/** A shipping method of an order. */
export const OrderShippingMethodView = RowView(orderShippingMethod);
/** A change recorded on an order (who did what, the state before and after). */
export const OrderChangeView = RowView(orderChange);
/** A return reason. */
export const ReturnReasonView = RowView(returnReason);
/** An item of a return; `item_id` is its order line (Medusa's name for `line_item_id`). */
export const ReturnItemView = RowView(orderReturnItem, { item_id: Type.String() });
/**
 * A return with its items. A return whose request is still pending (Medusa's order-change
 * protocol) is `open`, has no location until one is chosen, and its items are the request's actions.
 */
/** A return's shipping method: the return option, and what it costs in its currency. */
const ReturnShippingView = View({
  shipping_option_id: Type.String(),
  name: Type.String(),
  amount: MoneyView(),
  currency_code: Type.String(),
});
export const ReturnView = RowView(orderReturn, {
  location_id: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(ReturnItemView),
  shipping: Type.Union([ReturnShippingView, Type.Null()]),
});
/** An action of a pending return change, as Medusa's order preview shows it on the order's lines. */
export const ReturnChangeActionView = View({
  id: Type.String(),
  order_change_id: Type.String(),
  order_id: Type.String(),
  return_id: Type.String(),
  action: Type.String(),
  reference: Type.String(),
  reference_id: Type.String(),
  details: View({
    reference_id: Type.String(),
    quantity: Type.Integer(),
    reason_id: Type.Union([Type.String(), Type.Null()]),
  }),
  internal_note: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
/** A pending return change (Medusa's `order_change`), with its actions. */
export const ReturnChangeView = RowView(orderReturnChange, {
  actions: Type.Array(ReturnChangeActionView),
  shipping: Type.Union([
    View({
      ...(ReturnShippingView as unknown as { properties: Record<string, TSchema> }).properties,
      id: Type.String(),
      internal_note: Type.Union([Type.String(), Type.Null()]),
      created_at: Type.String(),
    }),
    Type.Null(),
  ]),
});
/** A credit line as the API shows it (Medusa's `OrderCreditLine`). */
export const OrderCreditLineView = View({
  id: Type.String(),
  order_id: Type.String(),
  amount: MoneyView(),
  reference: Type.String(),
  reference_id: Type.String(),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  version: Type.Integer(),
  created_at: Type.String(),
});
/** An order with its lines and shipping methods (the API adds payments, fulfillments and returns: see `orders/view.ts`). */
export const OrderView = RowView(order, {
  items: Type.Array(OrderLineItemView),
  shipping_methods: Type.Array(OrderShippingMethodView),
  credit_lines: Type.Array(OrderCreditLineView),
});

/** `POST /admin/orders/{id}/credit-lines`: a credit line on the order (Medusa's body). */
export const OrderCreditLineCreate = Type.Object(
  {
    amount: Money({ minimum: 1 }),
    /** What the credit stands for (`refund`, `payment`, …) and that record's id. */
    reference: Code({ minLength: 1 }),
    reference_id: Id({ minLength: 1 }),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type OrderCreditLineCreate = Static<typeof OrderCreditLineCreate>;

/** `POST /admin/order-edits`: begins an edit of an open order. */
export const OrderEditBegin = Type.Object(
  {
    order_id: Id(),
    description: Type.Optional(LongText()),
    internal_note: Type.Optional(LongText()),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type OrderEditBegin = Static<typeof OrderEditBegin>;

/** `POST /admin/order-edits/{id}/items`: variants to add, each at least one unit (`unit_price` overrides the price). */
export const OrderEditItemsAdd = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          variant_id: Id(),
          quantity: Count({ minimum: 1 }),
          unit_price: Type.Optional(Amount()),
          internal_note: Type.Optional(LongText()),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type OrderEditItemsAdd = Static<typeof OrderEditItemsAdd>;

/** `POST /admin/order-edits/{id}/request`: whether the customer is told of the edit once it is confirmed. */
export const OrderEditRequest = Type.Object(
  { no_notification: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type OrderEditRequest = Static<typeof OrderEditRequest>;

/**
 * `POST /admin/order-changes/{id}` on an active edit: its internal note. Kasse always carries an
 * order's promotions over to its changes (a line's discount scales with it), so
 * `carry_over_promotions` may only be `true`.
 */
export const OrderChangeUpdate = Type.Object(
  {
    internal_note: Type.Optional(Type.Union([LongText(), Type.Null()])),
    carry_over_promotions: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type OrderChangeUpdate = Static<typeof OrderChangeUpdate>;

/** An existing line's new quantity (0 takes every unit off) and price, or an added line's new quantity and price. */
export const OrderEditItemUpdate = Type.Object(
  {
    quantity: Count(),
    unit_price: Type.Optional(Amount()),
    internal_note: Type.Optional(LongText()),
  },
  { additionalProperties: false },
);
export type OrderEditItemUpdate = Static<typeof OrderEditItemUpdate>;

/** `POST /admin/order-edits/{id}/shipping-method`: a shipping option to add (`custom_amount` overrides its price). */
export const OrderEditShippingAdd = Type.Object(
  {
    shipping_option_id: Id(),
    custom_amount: Type.Optional(Amount()),
    description: Type.Optional(LongText()),
    internal_note: Type.Optional(LongText()),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type OrderEditShippingAdd = Static<typeof OrderEditShippingAdd>;

/** An added shipping method's new price. */
export const OrderEditShippingUpdate = Type.Object(
  {
    custom_amount: Type.Optional(Amount()),
    internal_note: Type.Optional(LongText()),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type OrderEditShippingUpdate = Static<typeof OrderEditShippingUpdate>;

/**
 * An action of an order change as Medusa answers it: an edit's (with the change's `version` and
 * the money it moves) or a return change's (`return_id`, the reason); in an exchange's or a
 * claim's preview, each of its actions names it (`exchange_id`, `claim_id`: the dashboard's forms
 * find their lines and methods by it).
 */
export const OrderChangeActionView = View({
  id: Type.String(),
  order_change_id: Type.String(),
  order_id: Type.String(),
  return_id: Type.Optional(Type.String()),
  exchange_id: Type.Optional(Type.String()),
  claim_id: Type.Optional(Type.String()),
  version: Type.Optional(Type.Integer()),
  action: Type.String(),
  reference: Type.String(),
  reference_id: Type.String(),
  details: View({
    reference_id: Type.Optional(Type.String()),
    reason_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    quantity: Type.Optional(Type.Integer()),
    unit_price: Type.Optional(MoneyView()),
    variant_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    product_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    title: Type.Optional(Type.String()),
    subtitle: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    thumbnail: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    variant_title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    variant_sku: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    product_title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    product_handle: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    requires_shipping: Type.Optional(Type.Boolean()),
    is_tax_inclusive: Type.Optional(Type.Boolean()),
    shipping_option_id: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    amount: Type.Optional(MoneyView()),
    tax_rate: Type.Optional(Type.Number()),
    /** An exchange's or claim's inbound shipping method: its return. */
    return_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    /** A claimed item's reason and note. */
    reason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    /** A credit line's reference (its `reference_id` above) and metadata. */
    reference: Type.Optional(Type.String()),
    /** A draft's promotion code (`PROMOTION_ADD`, `PROMOTION_REMOVE`). */
    code: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  }),
  /** The money the action moves (an added line's or method's amount before tax and discounts). */
  amount: Type.Optional(MoneyView()),
  internal_note: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
/** Medusa's order change, with its actions. */
export const OrderVersionChangeView = RowView(orderVersionChange, { actions: Type.Array(OrderChangeActionView) });
