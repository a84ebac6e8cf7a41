import type { OrderFulfillmentStatus } from "./schema";

/** The line quantities the fulfillment status is read from. */
export interface LineProgress {
  quantity: number;
  fulfilled_quantity: number;
  shipped_quantity: number;
  delivered_quantity: number;
}

/**
 * The order's `fulfillment_status` from its lines (Medusa's rule: the furthest stage any unit
 * reached, `partially_` unless every unit of the order reached it).
 */
export function deriveFulfillmentStatus(lines: LineProgress[]): OrderFulfillmentStatus {
  const total = lines.reduce((sum, l) => sum + l.quantity, 0);
  const sum = (key: "fulfilled_quantity" | "shipped_quantity" | "delivered_quantity") =>
    lines.reduce((s, l) => s + l[key], 0);
  const delivered = sum("delivered_quantity");
  const shipped = sum("shipped_quantity");
  const fulfilled = sum("fulfilled_quantity");
  if (delivered > 0) return delivered >= total ? "delivered" : "partially_delivered";
  if (shipped > 0) return shipped >= total ? "shipped" : "partially_shipped";
  if (fulfilled > 0) return fulfilled >= total ? "fulfilled" : "partially_fulfilled";
  return "not_fulfilled";
}
