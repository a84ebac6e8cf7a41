import { Type, type Static } from "@sinclair/typebox";
import { Count, Id, LongText, MoneyView, OptionalMetadata } from "@kasse/core";
import { RowView, View } from "@kasse/db";
import { CLAIM_REASONS, CLAIM_TYPES, orderClaimExchange } from "./schema";
import { OrderChangeActionView, OrderLineItemView } from "./shapes";

// The request bodies and views of Medusa's exchanges and claims. Their inbound items take the
// return request's bodies, their outbound items and shipping methods the order edit's.

const Note = () => Type.Optional(LongText());
const Reason = () => Type.Union(CLAIM_REASONS.map((r) => Type.Literal(r)));

/** `POST /admin/claims`: begins a claim of type `refund` or `replace` on an open order. */
export const ClaimBegin = Type.Object(
  {
    type: Type.Union(CLAIM_TYPES.map((t) => Type.Literal(t))),
    order_id: Id(),
    description: Note(),
    internal_note: Note(),
    /** Medusa's field; Kasse's claims carry their reasons on the claimed items. */
    reason_id: Type.Optional(Type.Union([Id(), Type.Null()])),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type ClaimBegin = Static<typeof ClaimBegin>;

/** `POST /admin/claims/{id}/claim-items`: order lines claimed (`WRITE_OFF_ITEM` actions). */
export const ClaimItemsAdd = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Id({ minLength: 1 }),
          quantity: Count({ minimum: 1 }),
          reason: Type.Optional(Reason()),
          description: Note(),
          internal_note: Note(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);
export type ClaimItemsAdd = Static<typeof ClaimItemsAdd>;

/** `POST /admin/claims/{id}/claim-items/{action_id}`. */
export const ClaimItemUpdate = Type.Object(
  {
    quantity: Type.Optional(Count({ minimum: 1 })),
    reason: Type.Optional(Reason()),
    /** Medusa's name for a claimed item's reason in this body. */
    reason_id: Type.Optional(Type.Union([Reason(), Type.Null()])),
    internal_note: Type.Optional(Type.Union([LongText(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type ClaimItemUpdate = Static<typeof ClaimItemUpdate>;

/** `POST /admin/{exchanges,claims}/{id}/request` and `/cancel`. */
export const ClaimExchangeConfirm = Type.Object(
  { no_notification: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

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
