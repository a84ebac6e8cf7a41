import type { Modules } from "@kasse/modules";
import { errors, transaction } from "@kasse/db";
import type { PaymentCollection } from "@kasse/modules/payment";
import type { Region } from "@kasse/modules/region";
import { assertCartAccess, assertCartOpen, nullIfMissing, type CartActor } from "./cart-write";

/** A payment collection with the region whose providers it may use. */
export interface CartPaymentResult {
  payment_collection: PaymentCollection;
  region: Region | null;
}

/**
 * The cart's payment collection for its total and currency: created on the first call, returned
 * as is on later ones (one per cart). The cart is locked meanwhile, so its total cannot move.
 */
export function createCartPaymentCollection(m: Modules, cartId: string, actor: CartActor): Promise<CartPaymentResult> {
  return transaction(m.db, async (tx) => {
    const t = m.bindTo(tx);
    const state = await t.cart.lock(cartId);
    assertCartAccess(state, actor);
    assertCartOpen(state);
    const { cart } = state;
    const [payment_collection, region] = await Promise.all([
      t.payment.createCollection({
        cart_id: cart.id,
        region_id: cart.region_id,
        currency_code: cart.currency_code,
        amount: cart.total,
      }),
      regionOf(t, cart.region_id),
    ]);
    return { payment_collection, region };
  });
}

/**
 * Starts a payment session with a provider enabled in the cart's region (else 400); it replaces the
 * collection's unauthorized sessions. The response carries the provider's `data` for the client.
 */
export function startPaymentSession(
  m: Modules,
  collectionId: string,
  actor: CartActor,
  input: { provider_id: string; data?: Record<string, unknown>; context?: Record<string, unknown> },
): Promise<CartPaymentResult> {
  return transaction(m.db, async (tx) => {
    const t = m.bindTo(tx);
    const { region } = await accessibleCollection(t, collectionId, actor, true);
    const enabled = region
      ? region.payment_providers.some((p) => p.id === input.provider_id && p.is_enabled)
      : t.payment.providers.has(input.provider_id);
    if (!enabled) throw errors.invalidData(`Payment provider ${input.provider_id} is not enabled in the cart's region`);
    const payment_collection = await t.payment.createSession(collectionId, input);
    return { payment_collection, region };
  });
}

/**
 * Authorizes a session with its provider: the session and collection become `authorized`. A
 * decline is 400 `payment_authorization_error`, a further customer step `payment_requires_more_error`
 * (the session keeps that status). Not inside a transaction: the provider's answer is recorded either way.
 */
export async function authorizePaymentSession(
  m: Modules,
  collectionId: string,
  sessionId: string,
  actor: CartActor,
  context?: Record<string, unknown>,
): Promise<CartPaymentResult> {
  const { region } = await accessibleCollection(m, collectionId, actor, false);
  const { collection } = await m.payment.authorizeSession(collectionId, sessionId, { context });
  return { payment_collection: collection, region };
}

/**
 * The collection's region, if the caller may reach its cart (a customer's cart only with their
 * token, else 404). Reads the collection's row only: the callers read what they change themselves.
 */
async function accessibleCollection(
  m: Modules,
  collectionId: string,
  actor: CartActor,
  lockCart: boolean,
): Promise<{ region: Region | null }> {
  const payment_collection = await m.payment.collectionRow(collectionId);
  if (!payment_collection.cart_id) return { region: await regionOf(m, payment_collection.region_id) };
  const state = lockCart
    ? await m.cart.lock(payment_collection.cart_id)
    : await m.cart.load(payment_collection.cart_id);
  try {
    assertCartAccess(state, actor);
  } catch {
    throw errors.notFound(`Payment collection with id: ${collectionId} was not found`);
  }
  if (lockCart) assertCartOpen(state);
  return { region: await regionOf(m, state.cart.region_id) };
}

async function regionOf(m: Modules, regionId: string | null): Promise<Region | null> {
  return regionId ? m.region.retrieve(regionId).catch(nullIfMissing) : null;
}
