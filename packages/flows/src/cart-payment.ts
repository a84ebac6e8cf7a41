import type { Modules } from "@kasse/modules";
import { errors } from "@kasse/core";
import { transaction } from "@kasse/db";
import { type Engine } from "@kasse/workflows";
import { workflow } from "./definitions";
import {
  authorizePaymentSessionStep,
  behindCart,
  createPaymentSessionStep,
  type PaymentCollection,
  type PaymentSessionInput,
} from "@kasse/modules/payment";
import type { CartRow } from "@kasse/modules/cart";
import type { Order } from "@kasse/modules/order";
import type { Region } from "@kasse/modules/region";
import { assertCartAccess, assertCartOpen, type CartActor } from "./cart-write";
import { nullIfMissing } from "./cart-result";
import { syncCartPaymentAmount } from "./cart-payment-amount";
import { assertPayable, payOrderCollectionWorkflow, shopperOrderOfCollection } from "./order-collection-payment";

/** A payment collection with the region whose providers it may use. */
export interface CartPaymentResult {
  payment_collection: PaymentCollection;
  region: Region | null;
}

/**
 * The cart's payment collection for its total and currency: created on the first call, returned
 * as is on later ones (one per cart). The cart is locked meanwhile, so its total cannot move.
 * One payment-module write (the cart is only locked and read).
 */
export function createCartPaymentCollection(m: Modules, cartId: string, actor: CartActor): Promise<CartPaymentResult> {
  return transaction(async () => {
    const state = await m.cart.lock(cartId);
    assertCartAccess(state, actor);
    assertCartOpen(state);
    const { cart } = state;
    const [payment_collection, region] = await Promise.all([
      m.payment.createCollection({
        cart_id: cart.id,
        region_id: cart.region_id,
        currency_code: cart.currency_code,
        amount: cart.total,
      }),
      regionOf(m, cart.region_id),
    ]);
    return { payment_collection, region };
  });
}

/**
 * Starting a payment session (Medusa's create-payment-session): the provider's `initiate` with
 * the step's idempotency key and the session's row, written by the payment module; compensation
 * cancels it with the provider and removes it. Returns the new session's id.
 */
export const createPaymentSessionWorkflow = workflow(
  "create-payment-session",
  async (input: PaymentSessionInput, ctx) => ctx.run(createPaymentSessionStep, input),
);

/**
 * The store's authorization of a session (`…/payment-sessions/{id}/authorize`): checkout's
 * authorize step, alone. Returns the payment's id.
 */
export const authorizePaymentSessionWorkflow = workflow(
  "authorize-payment-session",
  async (input: { collection_id: string; session_id: string; context?: Record<string, unknown> }, ctx) =>
    ctx.run(authorizePaymentSessionStep, input),
);

/**
 * Starts a payment session with a provider enabled in the cart's region (else 400); it replaces the
 * collection's unauthorized sessions. Checks access (someone else's cart: 404) and that the cart is
 * open, brings a collection left behind its cart's total up to it, then runs
 * `create-payment-session`. The response carries the provider's `data` for the client. An order's
 * collection (its payment link) takes a session once its order is the shopper's and it is still
 * owed in full (else 400, see `assertPayable`).
 * @example
 * const { payment_collection } = await startPaymentSession(app.infra.engine, app.modules, id, actor, { provider_id: "pp_system_default" });
 */
export async function startPaymentSession(
  engine: Pick<Engine, "execute">,
  m: Modules,
  collectionId: string,
  actor: CartActor,
  input: { provider_id: string; data?: Record<string, unknown>; context?: Record<string, unknown> },
): Promise<CartPaymentResult> {
  const collection = await m.payment.collectionRow(collectionId);
  const { region, cart, order } = await accessibleCollection(m, collection, actor);
  if (cart) assertCartOpen({ cart });
  else await assertPayable(m, order!, collection);
  const enabled = region
    ? region.payment_providers.some((p) => p.id === input.provider_id && p.is_enabled)
    : m.payment.providers.has(input.provider_id);
  if (!enabled)
    throw errors.invalidData(
      `Payment provider ${input.provider_id} is not enabled in the ${cart ? "cart" : "order"}'s region`,
    );
  // The new session takes the collection's amount and replaces the others: only that amount matters here.
  if (cart && behindCart(collection, cart.total)) await syncCartPaymentAmount(m, cart.id);
  await engine.execute(createPaymentSessionWorkflow, { collection_id: collectionId, ...input });
  return { payment_collection: await m.payment.retrieveCollection(collectionId), region };
}

/**
 * Authorizes a session with its provider: the session and collection become `authorized`. A
 * decline is 400 `payment_authorization_error`, a further customer step `payment_requires_more_error`
 * (the session keeps that status), a canceled session `not_allowed`, a replaced one 404. Runs
 * `authorize-payment-session` keyed on the session, so concurrent requests share one execution
 * (one authorization); a failed one does not block the next attempt (`freshAfterFailure`). A
 * collection left behind its cart's total is brought up to it first. An order's collection is paid
 * through `pay-order-payment-collection` (same key): the order's payment status follows.
 */
export async function authorizePaymentSession(
  engine: Pick<Engine, "execute">,
  m: Modules,
  collectionId: string,
  sessionId: string,
  actor: CartActor,
  context?: Record<string, unknown>,
): Promise<CartPaymentResult> {
  const collection = await m.payment.retrieveCollection(collectionId);
  const { region, cart } = await accessibleCollection(m, collection, actor);
  const once = { idempotencyKey: sessionId, freshAfterFailure: true };
  if (!cart) {
    const input = { payment_collection_id: collectionId, session_id: sessionId, customer_id: actor.customer_id };
    await engine.execute(payOrderCollectionWorkflow, { ...input, ...(context ? { context } : {}) }, once);
    return { payment_collection: await m.payment.retrieveCollection(collectionId), region };
  }
  if (behindCart(collection, cart.total)) await syncCartPaymentAmount(m, cart.id);
  await engine.execute(
    authorizePaymentSessionWorkflow,
    { collection_id: collectionId, session_id: sessionId, ...(context ? { context } : {}) },
    once,
  );
  return { payment_collection: await m.payment.retrieveCollection(collectionId), region };
}

/**
 * The collection's cart (its own row) and region, if the caller may reach that cart (a
 * customer's cart only with their token, else 404); a collection of no cart must be an order's
 * the caller may see in the store (else 404), and answers that order instead. Reads without
 * locking: the writes that follow take their own locks.
 */
async function accessibleCollection(
  m: Modules,
  collection: { id: string; cart_id: string | null; region_id: string | null },
  actor: CartActor,
): Promise<{ region: Region | null; cart: CartRow | null; order: Order | null }> {
  if (!collection.cart_id) {
    const order = await shopperOrderOfCollection(m, collection.id, actor.customer_id);
    return { region: await regionOf(m, collection.region_id), cart: null, order };
  }
  const cart = await m.cart.retrieve(collection.cart_id);
  try {
    assertCartAccess({ cart }, actor);
  } catch {
    throw errors.notFound(`Payment collection with id: ${collection.id} was not found`);
  }
  return { region: await regionOf(m, cart.region_id), cart, order: null };
}

async function regionOf(m: Modules, regionId: string | null): Promise<Region | null> {
  return regionId ? m.region.retrieve(regionId).catch(nullIfMissing) : null;
}
