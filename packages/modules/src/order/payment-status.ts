import type { OrderPaymentStatus, OrderStatus } from "./schema";

/** The amounts of one payment collection the order's payment status is read from. */
export interface CollectionAmounts {
  amount: number;
  authorized_amount: number;
  captured_amount: number;
  refunded_amount: number;
  /** The payment module's collection status; `canceled` once every authorization was voided. */
  status?: string;
}

/**
 * The order's `payment_status`, derived from its payment collections' amounts (never kept as a
 * second source of truth: every workflow that moves money re-derives and stores it, so it can be
 * filtered on). Follows Medusa's order payment status: refunds first, then captures, then
 * authorizations; a canceled order is `canceled` (its cancellation voided or refunded every payment).
 */
export function derivePaymentStatus(orderStatus: OrderStatus, collections: CollectionAmounts[]): OrderPaymentStatus {
  // A canceled order's payments are canceled or refunded in full by the cancellation.
  if (orderStatus === "canceled") return "canceled";
  if (collections.length === 0) return "not_paid";
  const sum = (key: "amount" | "authorized_amount" | "captured_amount" | "refunded_amount") =>
    collections.reduce((total, c) => total + c[key], 0);
  const amount = sum("amount");
  const authorized = sum("authorized_amount");
  const captured = sum("captured_amount");
  const refunded = sum("refunded_amount");
  if (refunded > 0) return refunded >= captured ? "refunded" : "partially_refunded";
  if (captured > 0) return captured >= amount ? "captured" : "partially_captured";
  if (authorized > 0) return authorized >= amount ? "authorized" : "partially_authorized";
  if (collections.every((c) => c.status === "canceled")) return "canceled";
  return "awaiting";
}
