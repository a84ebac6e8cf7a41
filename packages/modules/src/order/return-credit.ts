import type { OrderLineItemRow } from "./schema";

/** What `units` of a line are worth: its total's share for them (discount and tax included), rounded to the minor unit. */
export function lineShare(line: Pick<OrderLineItemRow, "quantity" | "total">, units: number): number {
  return line.quantity > 0 ? Math.round((line.total * units) / line.quantity) : 0;
}

/**
 * What the units received back on the order's returns are worth (damaged ones included: the
 * shopper sent them back): the order's total owed by the shopper is this much less, and a receipt
 * refunds it as far as it was paid (docs/orders.md "Settling the difference").
 */
export function returnCredit(items: Array<Pick<OrderLineItemRow, "quantity" | "total" | "return_received_quantity">>) {
  return items.reduce((sum, line) => sum + lineShare(line, line.return_received_quantity), 0);
}
