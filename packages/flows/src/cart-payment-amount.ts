import type { Modules } from "@kasse/modules";
import { transaction } from "@kasse/db";

/**
 * Brings the cart's payment collection (while not authorized) and its open sessions to the
 * cart's committed total, in one payment-module transaction that holds the cart's lock (so it
 * orders with the cart's writes: of two racing writes, the last sync reads the last total).
 * Returns that total. A cart write calls it after its commit when the collection is behind; a
 * new session and the store authorization call it first when they find the collection behind
 * (a crash between a cart write and its sync); checkout does the same in its first step.
 */
export function syncCartPaymentAmount(m: Modules, cartId: string): Promise<number> {
  return transaction(async () => {
    const { cart } = await m.cart.lock(cartId);
    await m.payment.syncCartAmount(cart.id, cart.total);
    return cart.total;
  });
}
