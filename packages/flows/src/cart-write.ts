import { errors } from "@kasse/core";
import { recordEvent } from "@kasse/modules/event";
import { writeWithEvents } from "./events";
import type { Modules } from "@kasse/modules";
import type { CartLineItemRow, CartState } from "@kasse/modules/cart";
import { atCartTotal, behindCart } from "@kasse/modules/payment";
import { refreshCart, type RefreshOptions } from "./refresh-cart";
import { nullIfMissing, type CartResult } from "./cart-result";
import { syncCartPaymentAmount } from "./cart-payment-amount";
import { cartOutdated } from "./cart-changes";

/** Who is asking: the signed-in customer's id, or null for a guest (or any other actor). */
export interface CartActor {
  customer_id: string | null;
}

/** Adds the applied promotions (one query for all) to a cart result. */
export async function withPromotions(m: Modules, result: CartResult): Promise<CartResult> {
  const ids = [
    ...new Set(
      [...result.items, ...result.shipping_methods].flatMap((line) => line.adjustments.map((a) => a.promotion_id)),
    ),
  ];
  if (ids.length === 0) return { ...result, promotions: [] };
  const { items } = await m.promotion.list({ id: ids }, { limit: ids.length, offset: 0 });
  const promotions = items.map((p) => ({
    id: p.id,
    code: p.code,
    is_automatic: p.is_automatic,
    application_method: p.application_method
      ? {
          type: p.application_method.type,
          target_type: p.application_method.target_type,
          allocation: p.application_method.allocation,
          value: Number(p.application_method.value),
          currency_code: p.application_method.currency_code,
        }
      : null,
  }));
  return { ...result, promotions };
}

/**
 * A customer's cart is reachable only with that customer's token; anyone else gets 404, the same
 * answer as for an id that does not exist (docs/CONTRACT.md "Access to carts and orders").
 */
export function assertCartAccess(state: Pick<CartState, "cart">, actor: CartActor): void {
  if (state.cart.customer_id && state.cart.customer_id !== actor.customer_id)
    throw errors.notFound(`Cart with id: ${state.cart.id} was not found`);
}

/** A completed cart is read-only. */
export function assertCartOpen(state: Pick<CartState, "cart">): void {
  if (state.cart.completed_at) throw errors.invalidData(`Cart ${state.cart.id} is already completed`);
}

/** What a cart write's change hands on to the refresh. */
export interface CartChange extends RefreshOptions {
  /**
   * The cart as the change left it, built from the locked state and the rows its writes
   * returned; without it the cart is read again.
   */
  state?: CartState;
}

/**
 * One cart write in one cart-module transaction: lock the cart, check access and that it is open,
 * apply `change`, then recompute prices, shipping, taxes, promotions and totals (`refreshCart`).
 * Either all of it commits or none of it (a 4xx leaves the cart as it was). What `change` calls
 * runs in that transaction (other modules are only read).
 *
 * A payment collection not yet authorized follows the cart's total: when the refresh found it
 * behind the new total, its own payment-module transaction brings it there right after the
 * cart's commit (`syncCartPaymentAmount`, under the cart's lock, so racing writes end at the last
 * total), and the answer shows it. A crash in between leaves the amount behind until the next
 * path that relies on it (a new session, the store authorization, checkout) syncs it first.
 */
export async function writeCart(
  m: Modules,
  cartId: string,
  actor: CartActor,
  change: (state: CartState) => Promise<CartChange | void>,
): Promise<CartResult> {
  const result = await writeWithEvents(async () => {
    // The event is sent with the lock's reads (one write, one round trip): a write that fails
    // afterwards rolls it back with everything else.
    const [locked] = await Promise.all([m.cart.lock(cartId), recordEvent("cart.updated", { id: cartId })]);
    assertCartAccess(locked, actor);
    assertCartOpen(locked);
    const { state, ...options } = (await change(locked)) ?? {};
    const changed = state ?? (await m.cart.load(cartId));
    return withPromotions(m, await refreshCart(m, changed, options));
  });
  const collection = result.payment_collection;
  if (collection && behindCart(collection, result.cart.total)) {
    // The cart's write committed: a failed sync does not undo it, nor turn its answer into an error
    // (a retried add would add twice). The answer then shows the amount as stored, behind, and
    // the next path that relies on it syncs it first.
    const amount = await syncCartPaymentAmount(m, cartId).catch(() => null);
    if (amount !== null) atCartTotal(collection, amount);
  }
  return result;
}

/** The cart's lines with `line` added or put in place of the line with its id, in the order `load` reads them. */
export function withLine(items: CartLineItemRow[], line: CartLineItemRow): CartLineItemRow[] {
  return [...items.filter((i) => i.id !== line.id), line].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * Reads a cart for a response: the state, its region and payment collection, after the access
 * check. An open cart that may no longer be what the store offers (`cartOutdated`: the catalog,
 * prices, promotions, shipping or taxes changed since it was priced, a price list or campaign date
 * passed, a budget of its promotions ran out) is refreshed first, as a cart write (`writeCart`
 * with no change): a read never shows a price or a discount that checkout would refuse.
 */
export async function readCart(m: Modules, cartId: string, actor: CartActor): Promise<CartResult> {
  let state = await m.cart.load(cartId);
  assertCartAccess(state, actor);
  if (await cartOutdated(m, state, new Date())) {
    try {
      return await writeCart(m, cartId, actor, async () => {});
    } catch (error) {
      // Completed meanwhile: it is read as it is.
      state = await m.cart.load(cartId);
      if (!state.cart.completed_at) throw error;
    }
  }
  const [region, payment_collection] = await Promise.all([
    state.cart.region_id ? m.region.retrieve(state.cart.region_id).catch(nullIfMissing) : null,
    m.payment.collectionForCart(cartId).then((c) => c ?? null),
  ]);
  return withPromotions(m, { ...state, region, payment_collection });
}
