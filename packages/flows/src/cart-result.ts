import { isKasseError } from "@kasse/core";
import type { CartLineItemRow, CartState } from "@kasse/modules/cart";
import type { PaymentCollection } from "@kasse/modules/payment";
import type { ComputeResult } from "@kasse/modules/promotion";
import type { Region } from "@kasse/modules/region";

/** A cart after a write: its state plus what a response shows with it. */
export interface CartResult extends CartState {
  region: Region | null;
  payment_collection: PaymentCollection | null;
  /** The promotions the cart's adjustments come from, with how each applies (loaded by {@link withPromotions}). */
  promotions?: CartPromotion[];
  /** Set by a refresh: the lines it removed as no longer for sale ({@link refreshCart}). */
  removed?: RemovedLine[];
  /** Set by a refresh: the promotions that gave nothing, and why. */
  promotion_skips?: PromotionSkip[];
}

/** A promotion a refresh found giving nothing, with why (`inactive`, `expired`, `budget_exhausted`…). */
type PromotionSkip = ComputeResult["skipped"][number];

/** A promotion applied to a cart, as a store cart shows it. */
export interface CartPromotion {
  id: string;
  code: string | null;
  is_automatic: boolean;
  application_method: {
    type: string;
    target_type: string;
    allocation: string | null;
    value: number;
    currency_code: string | null;
  } | null;
}

/** A line a refresh removed because it can no longer be sold, and why (for the shopper). */
export interface RemovedLine {
  item: CartLineItemRow;
  reason: string;
}

/** For `.catch`: a record that is gone reads as null; any other error stays an error. */
export function nullIfMissing(error: unknown): null {
  if (isKasseError(error) && error.type === "not_found") return null;
  throw error;
}
