import { Type, type Static, type TString } from "@sinclair/typebox";
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
  Strict,
  Title,
  Url,
} from "@kasse/core";
import { Extend, RowView, View, type StoredAddress, type ListFilters } from "@kasse/db";
import {
  CLAIM_REASONS,
  CLAIM_TYPES,
  type OrderReturnItemRow,
  type OrderReturnRow,
  PAYMENT_STATUSES,
  order,
  orderChange,
  orderClaimExchange,
  orderLineItem,
  orderReturn,
  orderReturnChange,
  orderReturnItem,
  orderShippingMethod,
  orderVersionChange,
  returnReason,
} from "./schema";
import { OrderCreditLine, ReturnShipping } from "./column-shapes";

/** An address as the order keeps it: a copy, so later edits of the customer's book don't change it. */
export type OrderAddress = StoredAddress;
/** A return with its items (`item_id`: the order line, as Medusa names it). */
export type OrderReturn = OrderReturnRow & { items: Array<OrderReturnItemRow & { item_id: string }> };

const Optional = (schema: TString) => Type.Optional(Type.Union([schema, Type.Null()]));
const Text = () => Optional(Title());
const OptionalText = () => Type.Optional(LongText());

/** An address in an order write (the create snapshot or `POST /admin/orders/{id}`). */
export const OrderAddressInput = Strict({
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
  metadata: OptionalMetadata(),
});
export type OrderAddressInput = Static<typeof OrderAddressInput>;

/** One line of the checkout snapshot an order is created from. */
export const OrderLineItemInput = Strict({
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
  unit_price: Amount(),
  subtotal: Amount(),
  tax_total: Type.Optional(Amount()),
  discount_total: Type.Optional(Amount()),
  total: Amount(),
  metadata: OptionalMetadata(),
});

/** One shipping method of the checkout snapshot. */
export const OrderShippingMethodInput = Strict({
  shipping_option_id: Optional(Id()),
  name: Title({ minLength: 1 }),
  amount: Amount(),
  is_tax_inclusive: Type.Optional(Type.Boolean()),
  subtotal: Amount(),
  tax_total: Type.Optional(Amount()),
  discount_total: Type.Optional(Amount()),
  total: Amount(),
  data: Type.Optional(ProviderData()),
  metadata: OptionalMetadata(),
});

/** The totals of the checkout snapshot (as the cart computed them). */
export const OrderTotalsInput = Strict({
  item_subtotal: Amount(),
  item_tax_total: Amount(),
  item_discount_total: Amount(),
  item_total: Amount(),
  shipping_subtotal: Amount(),
  shipping_tax_total: Amount(),
  shipping_discount_total: Amount(),
  shipping_total: Amount(),
  subtotal: Amount(),
  discount_total: Amount(),
  tax_total: Amount(),
  total: Amount(),
});

/**
 * What an order is created from: a cart-like snapshot (checkout passes the completed cart's
 * values), the payment collections paying for it and their status at checkout.
 */
export const OrderCreate = Strict({
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
  promotions: Type.Optional(Type.Array(Strict({ promotion_id: Id({ minLength: 1 }), amount: Amount() }))),
  payment_status: Type.Optional(Type.Union(PAYMENT_STATUSES.map((s) => Type.Literal(s)))),
  status: Type.Optional(Type.Union([Type.Literal("pending"), Type.Literal("requires_action"), Type.Literal("draft")])),
  metadata: OptionalMetadata(),
});
export type OrderCreate = Static<typeof OrderCreate>;

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

/** Filters of `GET /admin/return-reasons`. */
export interface ReturnReasonFilters extends ListFilters {
  value?: string[];
}

/** Body of `POST /admin/return-reasons`. */
export const ReturnReasonCreate = Strict({
  value: Code({ minLength: 1 }),
  label: Title({ minLength: 1 }),
  description: Optional(LongText()),
  metadata: OptionalMetadata(),
});
export type ReturnReasonCreate = Static<typeof ReturnReasonCreate>;

/** Body of `POST /admin/return-reasons/{id}`. */
export const ReturnReasonUpdate = Type.Partial(ReturnReasonCreate, { additionalProperties: false });
export type ReturnReasonUpdate = Static<typeof ReturnReasonUpdate>;

/** Body of `POST /admin/orders/{id}/returns` (docs/CONTRACT.md). */
export const ReturnCreate = Strict({
  items: Type.Array(
    Strict({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }), reason_id: Optional(Id({ minLength: 1 })) }),
    { minItems: 1, maxItems: 1000 },
  ),
  location_id: Id({ minLength: 1 }),
  metadata: OptionalMetadata(),
});
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
export const ReturnReceive = Strict({
  items: Type.Optional(
    Type.Array(Strict({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }) }), { minItems: 1, maxItems: 1000 }),
  ),
});
export type ReturnReceive = Static<typeof ReturnReceive>;

const Note = () => Type.Optional(Type.Union([LongText(), Type.Null()]));

/** Body of `POST /admin/returns` in Medusa's form: begins a return request (no items yet). */
export const ReturnRequestBegin = Strict({
  order_id: Id({ minLength: 1 }),
  location_id: Type.Optional(Id({ minLength: 1 })),
  description: Note(),
  internal_note: Note(),
  /** Medusa's flag to silence the customer's notice; Kasse sends none for a return. */
  no_notification: Type.Optional(Type.Boolean()),
  metadata: OptionalMetadata(),
});
export type ReturnRequestBegin = Static<typeof ReturnRequestBegin>;

/** Body of `POST /admin/returns/{id}` while its request is pending. */
export const ReturnRequestUpdate = Type.Pick(ReturnRequestBegin, ["location_id", "no_notification", "metadata"], {
  additionalProperties: false,
});
export type ReturnRequestUpdate = Static<typeof ReturnRequestUpdate>;

const ReturnRequestItem = Strict({
  id: Id({ minLength: 1 }),
  quantity: Count({ minimum: 1 }),
  reason_id: Optional(Id({ minLength: 1 })),
  description: Note(),
  internal_note: Note(),
  metadata: OptionalMetadata(),
});

/** Body of `POST /admin/returns/{id}/request-items`: order lines to ask back (`RETURN_ITEM` actions). */
export const ReturnRequestItems = Strict({ items: Type.Array(ReturnRequestItem, { minItems: 1, maxItems: 1000 }) });
export type ReturnRequestItems = Static<typeof ReturnRequestItems>;

/** Body of `POST /admin/returns/{id}/request-items/{action_id}`. */
export const ReturnRequestItemUpdate = Type.Partial(
  Type.Pick(ReturnRequestItem, ["quantity", "reason_id", "internal_note"]),
  { additionalProperties: false },
);
export type ReturnRequestItemUpdate = Static<typeof ReturnRequestItemUpdate>;

/** Body of `POST /admin/returns/{id}/receive-items`: order lines counted back (`RECEIVE_RETURN_ITEM` actions). */
export const ReturnReceiveItems = Strict({
  items: Type.Array(
    Strict({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }), description: Note(), internal_note: Note() }),
    { minItems: 1, maxItems: 1000 },
  ),
});
export type ReturnReceiveItems = Static<typeof ReturnReceiveItems>;

/** Body of `POST /admin/returns/{id}/receive-items/{action_id}`. */
export const ReturnReceiveItemUpdate = Type.Omit(ReturnRequestItemUpdate, ["reason_id"]);
export type ReturnReceiveItemUpdate = Static<typeof ReturnReceiveItemUpdate>;

/** Body of `POST /admin/returns/{id}/request` and `…/receive/confirm`. */
export const ReturnChangeConfirm = Strict({ no_notification: Type.Optional(Type.Boolean()) });

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
export const ReturnView = RowView(orderReturn, {
  location_id: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(ReturnItemView),
  shipping: Type.Union([View(ReturnShipping.properties), Type.Null()]),
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
    Extend(View(ReturnShipping.properties), {
      id: Type.String(),
      internal_note: Type.Union([Type.String(), Type.Null()]),
      created_at: Type.String(),
    }),
    Type.Null(),
  ]),
});
/** An order with its lines and shipping methods (the API adds payments, fulfillments and returns: see `orders/view.ts`). */
export const OrderView = RowView(order, {
  items: Type.Array(OrderLineItemView),
  shipping_methods: Type.Array(OrderShippingMethodView),
  credit_lines: Type.Array(View(OrderCreditLine.properties)),
});

/** `POST /admin/orders/{id}/credit-lines`: a credit line on the order (Medusa's body). */
export const OrderCreditLineCreate = Strict({
  amount: Amount({ minimum: 1 }),
  /** What the credit stands for (`refund`, `payment`, …) and that record's id. */
  reference: Code({ minLength: 1 }),
  reference_id: Id({ minLength: 1 }),
  metadata: OptionalMetadata(),
});
export type OrderCreditLineCreate = Static<typeof OrderCreditLineCreate>;

/** `POST /admin/order-edits`: begins an edit of an open order. */
export const OrderEditBegin = Strict({
  order_id: Id(),
  description: OptionalText(),
  internal_note: OptionalText(),
  metadata: OptionalMetadata(),
});
export type OrderEditBegin = Static<typeof OrderEditBegin>;

/** `POST /admin/order-edits/{id}/items`: variants to add, each at least one unit (`unit_price` overrides the price). */
export const OrderEditItemsAdd = Strict({
  items: Type.Array(
    Strict({
      variant_id: Id(),
      quantity: Count({ minimum: 1 }),
      unit_price: Type.Optional(Amount()),
      internal_note: OptionalText(),
    }),
    { minItems: 1, maxItems: 100 },
  ),
});
export type OrderEditItemsAdd = Static<typeof OrderEditItemsAdd>;

/** `POST /admin/order-edits/{id}/request`: whether the customer is told of the edit once it is confirmed. */
export const OrderEditRequest = Strict(ReturnChangeConfirm.properties);
export type OrderEditRequest = Static<typeof OrderEditRequest>;

/**
 * `POST /admin/order-changes/{id}` on an active edit: its internal note. Kasse always carries an
 * order's promotions over to its changes (a line's discount scales with it), so
 * `carry_over_promotions` may only be `true`.
 */
export const OrderChangeUpdate = Strict({
  internal_note: Type.Optional(Type.Union([LongText(), Type.Null()])),
  carry_over_promotions: Type.Optional(Type.Boolean()),
});
export type OrderChangeUpdate = Static<typeof OrderChangeUpdate>;

/** An existing line's new quantity (0 takes every unit off) and price, or an added line's new quantity and price. */
export const OrderEditItemUpdate = Strict({
  quantity: Count(),
  unit_price: Type.Optional(Amount()),
  internal_note: OptionalText(),
});
export type OrderEditItemUpdate = Static<typeof OrderEditItemUpdate>;

/** `POST /admin/order-edits/{id}/shipping-method`: a shipping option to add (`custom_amount` overrides its price). */
export const OrderEditShippingAdd = Strict({
  shipping_option_id: Id(),
  custom_amount: Type.Optional(Amount()),
  description: OptionalText(),
  internal_note: OptionalText(),
  metadata: OptionalMetadata(),
});
export type OrderEditShippingAdd = Static<typeof OrderEditShippingAdd>;

/** An added shipping method's new price. */
export const OrderEditShippingUpdate = Type.Omit(OrderEditShippingAdd, ["shipping_option_id", "description"]);
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

// ---- Exchanges and claims ----

// The request bodies and views of Medusa's exchanges and claims. Their inbound items take the
// return request's bodies, their outbound items and shipping methods the order edit's.

const Reason = () => Type.Union(CLAIM_REASONS.map((r) => Type.Literal(r)));

/** `POST /admin/claims`: begins a claim of type `refund` or `replace` on an open order. */
export const ClaimBegin = Strict({
  type: Type.Union(CLAIM_TYPES.map((t) => Type.Literal(t))),
  order_id: Id(),
  description: OptionalText(),
  internal_note: OptionalText(),
  /** Medusa's field; Kasse's claims carry their reasons on the claimed items. */
  reason_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  metadata: OptionalMetadata(),
});
export type ClaimBegin = Static<typeof ClaimBegin>;

/** `POST /admin/claims/{id}/claim-items`: order lines claimed (`WRITE_OFF_ITEM` actions). */
export const ClaimItemsAdd = Strict({
  items: Type.Array(
    Strict({
      id: Id({ minLength: 1 }),
      quantity: Count({ minimum: 1 }),
      reason: Type.Optional(Reason()),
      description: OptionalText(),
      internal_note: OptionalText(),
    }),
    { minItems: 1, maxItems: 1000 },
  ),
});
export type ClaimItemsAdd = Static<typeof ClaimItemsAdd>;

/** `POST /admin/claims/{id}/claim-items/{action_id}`. */
export const ClaimItemUpdate = Strict({
  quantity: Type.Optional(Count({ minimum: 1 })),
  reason: Type.Optional(Reason()),
  /** Medusa's name for a claimed item's reason in this body. */
  reason_id: Type.Optional(Type.Union([Reason(), Type.Null()])),
  internal_note: Type.Optional(Type.Union([LongText(), Type.Null()])),
});
export type ClaimItemUpdate = Static<typeof ClaimItemUpdate>;

/** `POST /admin/{exchanges,claims}/{id}/request` and `/cancel`. */
export const ClaimExchangeConfirm = Strict(ReturnChangeConfirm.properties);

const AdditionalItem = View({
  id: Type.String(),
  item_id: Type.String(),
  quantity: Type.Integer(),
  unit_price: Type.Optional(MoneyView()),
  variant_id: Type.Optional(Type.String()),
  /** Once confirmed, the order line the outbound item became. */
  item: Type.Optional(OrderLineItemView),
});
const ClaimItem = View({
  id: Type.String(),
  item_id: Type.String(),
  quantity: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
});
const common = {
  /** The order's currency (its amounts are in it). */
  currency_code: Type.String(),
  /** `pending`, `requested`, `confirmed`, `canceled`: its order change's status. */
  status: Type.String(),
  order_version: Type.Integer(),
  additional_items: Type.Array(AdditionalItem),
  actions: Type.Array(OrderChangeActionView),
};

/** Medusa's exchange: its return, its outbound items (`additional_items`) and `difference_due`. */
export const ExchangeView = RowView(orderClaimExchange, common, ["kind", "type", "refund_amount"]);
/** Medusa's claim: its type, claimed items, return, outbound items and `refund_amount`. */
export const ClaimView = RowView(orderClaimExchange, { ...common, claim_items: Type.Array(ClaimItem) }, ["kind"]);

// ---- Draft orders ----

/** One line of a draft: a variant (priced unless `unit_price`), or a custom line (`title` and `unit_price`). */
const DraftOrderItem = Strict({
  variant_id: Type.Optional(Id()),
  title: Type.Optional(Title({ minLength: 1 })),
  quantity: Count({ minimum: 1 }),
  unit_price: Type.Optional(Amount()),
  internal_note: OptionalText(),
});

/** Body of `POST /admin/draft-orders` (Medusa's draft order: an order with status `draft`). */
export const DraftOrderCreate = Strict({
  email: Type.Optional(Email()),
  customer_id: Type.Optional(Id()),
  region_id: Id(),
  /** The region's currency (another one is refused). */
  currency_code: Type.Optional(CurrencyCode()),
  sales_channel_id: Type.Optional(Id()),
  shipping_address: Type.Optional(OrderAddressInput),
  billing_address: Type.Optional(OrderAddressInput),
  items: Type.Optional(Type.Array(DraftOrderItem, { maxItems: 100 })),
  /** Medusa's shipping methods: the option, its `amount` (default: the option's price) and `name` (default: the option's). */
  shipping_methods: Type.Optional(
    Type.Array(
      Strict({
        shipping_option_id: Id(),
        name: Type.Optional(Title({ minLength: 1 })),
        amount: Type.Optional(Amount()),
      }),
      { maxItems: 10 },
    ),
  ),
  metadata: OptionalMetadata(),
});
export type DraftOrderCreate = Static<typeof DraftOrderCreate>;

/** Body of `POST /admin/draft-orders/{id}`: its email, customer, sales channel, addresses and metadata. */
export const DraftOrderUpdate = Type.Omit(DraftOrderCreate, [
  "region_id",
  "currency_code",
  "items",
  "shipping_methods",
]);
export type DraftOrderUpdate = Static<typeof DraftOrderUpdate>;

/** Body of `POST /admin/orders/{id}`. */
export const OrderUpdate = Type.Omit(DraftOrderUpdate, ["customer_id", "sales_channel_id"]);
export type OrderUpdate = Static<typeof OrderUpdate>;

/** `POST /admin/draft-orders/{id}/edit/items`: variants or custom lines, as a draft is created with. */
export const DraftEditItemsAdd = Strict({ items: Type.Array(DraftOrderItem, { minItems: 1, maxItems: 100 }) });
export type DraftEditItemsAdd = Static<typeof DraftEditItemsAdd>;

/** `POST /admin/draft-orders/{id}/edit/shipping-methods/{action_id}`: an added method's price (Medusa's body names its option). */
export const DraftEditShippingUpdate = Strict({
  shipping_option_id: Type.Optional(Id()),
  custom_amount: Type.Optional(Type.Union([Amount(), Type.Null()])),
  internal_note: Type.Optional(Type.Union([LongText(), Type.Null()])),
});
export type DraftEditShippingUpdate = Static<typeof DraftEditShippingUpdate>;

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type AddedItemDetails,
  type AddedShippingDetails,
  CLAIM_REASONS,
  CLAIM_TYPES,
  type ClaimExchangeKind,
  type ClaimReason,
  type ClaimType,
  FULFILLMENT_STATUSES,
  ORDER_CHANGE_STATUSES,
  ORDER_CHANGE_TYPES,
  ORDER_STATUSES,
  type OrderChangeAction,
  type OrderChangeActionBody,
  type OrderChangeRow,
  type OrderChangeStatus,
  type OrderChangeType,
  type OrderClaimExchangeRow,
  type OrderFulfillmentStatus,
  type OrderLineItemRow,
  type OrderPaymentStatus,
  type OrderReturnChangeInsert,
  type OrderReturnChangeRow,
  type OrderReturnItemRow,
  type OrderReturnRow,
  type OrderRow,
  type OrderShippingMethodRow,
  type OrderStatus,
  type OrderTransferRequestRow,
  type OrderVersionChangeRow,
  PAYMENT_STATUSES,
  RETURN_CHANGE_STATUSES,
  RETURN_CHANGE_TYPES,
  RETURN_STATUSES,
  type ReturnChangeAction,
  type ReturnChangeActionName,
  type ReturnChangeStatus,
  type ReturnChangeType,
  type ReturnReasonRow,
  type ReturnStatus,
  TRANSFER_STATUSES,
  type TransferStatus,
} from "./schema";
export type { OrderCreditLine, ReturnShipping } from "./column-shapes";
