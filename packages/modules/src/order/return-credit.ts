import type { OrderLineItemRow } from "./schema";
import type { ReturnShipping } from "./column-shapes";

type Line = Pick<OrderLineItemRow, "id" | "quantity" | "total">;
/** A return as its credit reads it: the units of each line received back, its shipping, and whose inbound it is. */
type CreditedReturn = {
  shipping: Pick<ReturnShipping, "amount"> | null;
  exchange_id: string | null;
  claim_id: string | null;
  items: Array<{ line_item_id: string; received_quantity: number }>;
};

/** What `units` of a line are worth: its total's share for them (discount and tax included), rounded to the minor unit. */
export function lineShare(line: Pick<OrderLineItemRow, "quantity" | "total">, units: number): number {
  return line.quantity > 0 ? Math.round((line.total * units) / line.quantity) : 0;
}

/**
 * What a return gives the shopper back: its units received so far (`received`, default its
 * items' received quantities; damaged ones included: the shopper sent them back) at their lines'
 * shares, less its return shipping once anything came back, never below zero. An exchange's or
 * claim's inbound return gives nothing back: its units were settled by the change's deduction at
 * confirmation.
 */
export function returnCreditOf(
  lines: Line[],
  ret: CreditedReturn,
  received: (item: CreditedReturn["items"][number]) => number = (item) => item.received_quantity,
): number {
  if (ret.exchange_id || ret.claim_id) return 0;
  const value = ret.items.reduce((sum, item) => {
    const line = lines.find((l) => l.id === item.line_item_id);
    return sum + (line ? lineShare(line, received(item)) : 0);
  }, 0);
  return value > 0 ? Math.max(0, value - (ret.shipping?.amount ?? 0)) : 0;
}

/**
 * What the order's returns gave back ({@link returnCreditOf} each): the shopper owes that much
 * less, and a receipt refunds it as far as it was paid (docs/orders.md "Settling the difference").
 */
export function returnCredit(lines: Line[], returns: CreditedReturn[]): number {
  return returns.reduce((sum, ret) => sum + returnCreditOf(lines, ret), 0);
}
