import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "@kasse/db";
import type { OrderCreditLine, ReturnShipping } from "./column-shapes";
import {
  fileUrl,
  metadata,
  money,
  storedTotals,
  entityTable,
  parentId,
  indexes,
  liveUniqueIndex,
  timestamptz,
  createdAt,
  storedAddress,
  indexWhere,
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
    // page reads 15 index entries instead of sorting every order, and its count is an index-only
    // scan. `status` rides along for that count: order lists leave drafts out (`status <> 'draft'`),
    // which without it sends the count to every order's row.
    index("order_live_created_at_status_idx").on(t.created_at, t.id, t.status).where(indexWhere("deleted_at is null")),
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
    uniqueIndex("order_return_change_pending_uq").on(t.order_id).where(indexWhere("status = 'pending'")),
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
      .where(indexWhere("status in ('pending', 'requested')")),
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
export type OrderRow = typeof order.$inferSelect;
export type OrderLineItemRow = typeof orderLineItem.$inferSelect;
export type OrderShippingMethodRow = typeof orderShippingMethod.$inferSelect;
export type OrderChangeRow = typeof orderChange.$inferSelect;
