// The values two jsonb columns hold (an order's credit lines, a return's shipping), in typebox: the tables
// type their columns with them and the views show them, so neither file imports the other.
import { Type, type Static } from "@sinclair/typebox";
import { MoneyView } from "@kasse/core";

/**
 * Medusa's order credit line: money the merchant credits the order (a goodwill gesture, a
 * settlement made elsewhere), owed no more by the customer. Written by a confirmed `credit_line`
 * order change (`version`: the order version it made). `amount`: integer minor units, above zero.
 */
export const OrderCreditLine = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  amount: MoneyView(),
  reference: Type.String(),
  reference_id: Type.String(),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  version: Type.Integer(),
  created_at: Type.String(),
});
export type OrderCreditLine = Static<typeof OrderCreditLine>;

/**
 * How a return comes back: a return shipping option, and what it costs the shopper (taken off the
 * refund) in the order's currency (the return's own answers carry no other currency).
 */
export const ReturnShipping = Type.Object({
  shipping_option_id: Type.String(),
  name: Type.String(),
  amount: MoneyView(),
  currency_code: Type.String(),
});
export type ReturnShipping = Static<typeof ReturnShipping>;
