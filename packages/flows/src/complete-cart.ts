import { errors, isKasseError, type KasseError } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { type Engine } from "@kasse/workflows";
import { step, workflow } from "./definitions";
import { catalogMoved, datesPassed, type CartAddress, type CartState } from "@kasse/modules/cart";
import { reserveLineItemsStep, type ReserveForLinesInput } from "@kasse/modules/inventory";
import { type OrderActor, type OrderAddressInput, type OrderCreate } from "@kasse/modules/order";
import {
  atCartTotal,
  authorizePaymentSessionStep,
  behindCart,
  reauthorizeCartPaymentStep,
  type PaymentCollection,
} from "@kasse/modules/payment";
import { registerPromotionUsage, type PromotionUsage } from "@kasse/modules/promotion";
import type { CartActor } from "./cart-write";
import { cartChangedError, cartDifferences, promotionUsages, type CartDifference } from "./cart-changes";
import { refreshCart } from "./refresh-cart";
import { reservableLines } from "./reservable-lines";

/** What {@link prepareCompletionStep} decides, as JSON: everything the later steps need. */
interface CompletionPlan {
  /** Set when the cart was already completed: its order, and nothing else to do. */
  completed_order_id: string | null;
  /**
   * Set when what the cart charges for changed since it was priced: the cart was refreshed (and
   * that committed), this is what changed, and checkout stops here with `cart_changed`.
   */
  changed: CartDifference[] | null;
  /** The cart's `updated_at` when it was checked: the order is placed only if it is still that cart. */
  cart_updated_at: string;
  reserve: ReserveForLinesInput;
  /** The session to authorize, or null when the collection is already authorized. */
  authorize: { collection_id: string; session_id: string } | null;
  /** Set when the collection is authorized for another amount than the cart's total: authorize `amount` anew. */
  reauthorize: { collection_id: string; amount: number } | null;
  usages: PromotionUsage[];
  order: OrderCreate | null;
  actor: OrderActor;
}

/**
 * A checkout precondition the caller must fix (400 `invalid_data`, not a failed completion):
 * marked in `details` so the caller can tell it from a failure inside the workflow.
 */
function preconditionError(message: string, missing: string[]): KasseError {
  return errors.invalidData(message, { details: { precondition: true, missing } });
}

/** True for the error of a missing checkout precondition (see {@link preconditionError}). */
function isCheckoutPrecondition(error: KasseError): boolean {
  return error.details?.precondition === true;
}

/** What is missing before a cart can be completed, in the order a storefront fills it in. */
function missingPieces(state: CartState, collection: PaymentCollection | undefined): string[] {
  const { cart } = state;
  const missing: string[] = [];
  if (state.items.length === 0) missing.push("items");
  if (!cart.email) missing.push("email");
  if (!cart.shipping_address) missing.push("shipping address");
  if (!cart.billing_address) missing.push("billing address");
  if (state.shipping_methods.length === 0) missing.push("shipping method");
  if (!collection) missing.push("payment collection");
  else if (!collection.payment_sessions.some((s) => s.status !== "canceled")) missing.push("payment session");
  return missing;
}

/** The session checkout authorizes: the newest one that is not canceled (a declined one may be retried). */
function sessionToAuthorize(collection: PaymentCollection) {
  const open = collection.payment_sessions.filter((s) => s.status !== "canceled" && s.status !== "authorized");
  return open.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0];
}

function orderAddress(address: CartAddress | null): OrderAddressInput | null {
  if (!address) return null;
  const { id: _id, ...fields } = address;
  return fields;
}

/** The order as checkout creates it: the cart's lines, addresses, methods and totals, copied. */
function orderSnapshot(state: CartState, collectionId: string): OrderCreate {
  const { cart } = state;
  return {
    cart_id: cart.id,
    customer_id: cart.customer_id,
    email: cart.email,
    currency_code: cart.currency_code,
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    locale: cart.locale,
    shipping_address: orderAddress(cart.shipping_address),
    billing_address: orderAddress(cart.billing_address),
    items: state.items.map((i) => ({
      cart_line_item_id: i.id,
      variant_id: i.variant_id,
      product_id: i.product_id,
      title: i.title,
      subtitle: i.subtitle,
      thumbnail: i.thumbnail,
      variant_title: i.variant_title,
      variant_sku: i.variant_sku,
      product_title: i.product_title,
      product_handle: i.product_handle,
      requires_shipping: i.requires_shipping,
      is_tax_inclusive: i.is_tax_inclusive,
      quantity: i.quantity,
      unit_price: i.unit_price,
      subtotal: i.subtotal,
      tax_total: i.tax_total,
      discount_total: i.discount_total,
      total: i.total,
      metadata: i.metadata,
    })),
    shipping_methods: state.shipping_methods.map((m) => ({
      shipping_option_id: m.shipping_option_id,
      name: m.name,
      amount: m.amount,
      is_tax_inclusive: m.is_tax_inclusive,
      subtotal: m.subtotal,
      tax_total: m.tax_total,
      discount_total: m.discount_total,
      total: m.total,
      data: m.data,
      metadata: m.metadata,
    })),
    totals: {
      item_subtotal: cart.item_subtotal,
      item_tax_total: cart.item_tax_total,
      item_discount_total: cart.item_discount_total,
      item_total: cart.item_total,
      shipping_subtotal: cart.shipping_subtotal,
      shipping_tax_total: cart.shipping_tax_total,
      shipping_discount_total: cart.shipping_discount_total,
      shipping_total: cart.shipping_total,
      subtotal: cart.subtotal,
      discount_total: cart.discount_total,
      tax_total: cart.tax_total,
      total: cart.total,
    },
    payment_collection_ids: [collectionId],
    promotions: promotionUsages(state),
    payment_status: "authorized",
    status: "pending",
  };
}

/** Collection statuses holding an authorization (the amount it holds is `authorized_amount`). */
const HOLDS_AUTHORIZATION = new Set(["authorized", "partially_authorized", "completed"]);

/**
 * Locks the cart and checks every checkout precondition, then reads what the later steps need in
 * the same transaction (variant inventory flags, the channel's stock locations, the payment
 * session), so the saga's first round trips decide everything.
 *
 * What the cart charges for is checked against the store as it is now: when a write to what it is
 * computed from committed since it was priced, a price list or campaign date passed, or a budget
 * of one of its promotions is used up (`cartOutdated`'s conditions), the cart is refreshed as a
 * cart write would refresh it (`refreshCart`: lines no longer for sale removed, prices, shipping,
 * taxes and promotions computed anew) and, if anything it charges for differs, that refresh
 * commits with this step and the plan names the differences: checkout stops with `cart_changed`
 * and the shopper completes the refreshed cart. Otherwise the payment must hold exactly the cart's
 * total: a collection not yet authorized is brought to it (`payment.syncCartAmount`, when a cart
 * write's own sync was lost), one authorized for another amount is authorized anew (the plan's
 * `reauthorize`). The step's writes (the refresh, the amount) are corrections to the open cart:
 * nothing to undo, so no compensation.
 */
const prepareCompletionStep = step("prepare-cart-completion", {
  invoke: async (input: { cart_id: string }, ctx) => {
    const locked = await ctx.modules.cart.lock(input.cart_id);
    const { cart } = locked;
    const actor: OrderActor = cart.customer_id
      ? { actor_type: "customer", actor_id: cart.customer_id }
      : { actor_type: null, actor_id: null };
    const empty = {
      completed_order_id: null,
      changed: null,
      cart_updated_at: cart.updated_at.toISOString(),
      reserve: { lines: [], location_ids: [] },
      authorize: null,
      reauthorize: null,
      usages: [],
      order: null,
      actor,
    };
    if (cart.completed_at) {
      const placed = await ctx.modules.order.findByCart(cart.id);
      if (!placed) throw errors.invalidData(`Cart ${cart.id} is already completed`);
      const plan: CompletionPlan = { ...empty, completed_order_id: placed.id };
      return { output: plan };
    }
    const usages = promotionUsages(locked);
    const variantIds = [...new Set(locked.items.map((i) => i.variant_id))];
    const [collection, variants, location_ids, short] = await Promise.all([
      ctx.modules.payment.collectionForCart(cart.id),
      ctx.modules.product.inventoryFlags(variantIds),
      cart.sales_channel_id ? ctx.modules.stockLocation.locationIdsForSalesChannels([cart.sales_channel_id]) : [],
      // Other orders may have used up a budget since the cart was priced (its use bumps no version).
      usages.length ? ctx.modules.promotion.budgetsShort(usages) : [],
    ]);
    const missing = missingPieces(locked, collection);
    if (missing.length)
      throw preconditionError(`Cannot complete cart ${cart.id}: missing ${missing.join(", ")}`, missing);
    const payment = collection!;
    if (payment.currency_code !== cart.currency_code)
      throw preconditionError(
        `Cannot complete cart ${cart.id}: the payment collection is in ${payment.currency_code}, the cart in ${cart.currency_code}`,
        ["payment"],
      );
    let state: CartState = locked;
    if (catalogMoved(locked) || datesPassed(locked, new Date()) || short.length) {
      const refreshed = await refreshCart(ctx.modules, locked);
      const changed = cartDifferences(locked, refreshed);
      if (changed.length) {
        // The refreshed total is what the shopper pays next: a collection not yet authorized follows it now.
        if (behindCart(payment, refreshed.cart.total))
          await ctx.modules.payment.syncCartAmount(cart.id, refreshed.cart.total);
        const plan: CompletionPlan = { ...empty, changed };
        return { output: plan };
      }
      state = refreshed;
    }
    const total = state.cart.total;
    const held = HOLDS_AUTHORIZATION.has(payment.status);
    // A cart write's sync of the amount may have been lost (a crash after the cart's commit): the
    // collection follows the locked cart's total before anything is authorized.
    if (!held && behindCart(payment, total) && (await ctx.modules.payment.syncCartAmount(cart.id, total)))
      atCartTotal(payment, total);
    const session = held ? undefined : sessionToAuthorize(payment);
    if (!held && !session)
      throw preconditionError(`Cannot complete cart ${cart.id}: missing payment session`, ["payment session"]);
    // The payment is exactly the order's total: an authorization for another amount is renewed.
    const exact = payment.status !== "partially_authorized" && payment.authorized_amount === total;
    const reauthorize = held && !exact ? { collection_id: payment.id, amount: total } : null;
    const lines = reservableLines(state.items, variants);
    const plan: CompletionPlan = {
      ...empty,
      cart_updated_at: state.cart.updated_at.toISOString(),
      reserve: { lines, location_ids, strategy: "single_location_first" },
      authorize: session ? { collection_id: payment.id, session_id: session.id } : null,
      reauthorize,
      usages: promotionUsages(state),
      order: orderSnapshot(state, payment.id),
    };
    return { output: plan };
  },
});

/**
 * After a budget was used up between the check and the usage's registration (a race with another
 * order): refreshes the cart (the promotion drops out) and answers what changed. Cart module only
 * (the collection is authorized: the compensation that follows voids it); nothing to undo.
 */
const refreshStaleCartStep = step("refresh-stale-cart", {
  invoke: async (input: { cart_id: string }, ctx) => {
    const locked = await ctx.modules.cart.lock(input.cart_id);
    return { output: cartDifferences(locked, await refreshCart(ctx.modules, locked)) };
  },
});

/** The error of a budget that could not take the order's usage (`promotion.registerUsage`). */
const budgetUsedUp = (error: unknown): boolean => isKasseError(error) && error.details?.reason === "budget_exhausted";

/**
 * Marks the cart completed, if it is still the one checked at the start (same `updated_at`, not
 * completed): a line added meanwhile fails the checkout instead of placing an order that differs
 * from the cart, and of two completions racing past the first step only one gets here. Cart
 * module only; compensation reopens the cart.
 */
const closeCartStep = step("close-cart", {
  invoke: async (input: { cart_id: string; cart_updated_at: string }, ctx) => {
    if (!(await ctx.modules.cart.completeIfUnchanged(input.cart_id, input.cart_updated_at)))
      throw errors.invalidData(`Cart ${input.cart_id} changed while it was being completed; complete it again`);
    return { output: null, compensateInput: { cart_id: input.cart_id } };
  },
  compensate: async (input: { cart_id: string }, ctx) => {
    await ctx.modules.cart.reopen(input.cart_id);
  },
});

/**
 * Creates the order from the cart's snapshot and records `order.placed` with it. Order module
 * only; compensation deletes the order.
 */
const placeOrderStep = step("place-order", {
  invoke: async (input: { cart_id: string; order: OrderCreate; actor: OrderActor }, ctx) => {
    const created = await ctx.modules.order.create(input.order, input.actor);
    // Released only when the whole checkout succeeds: a compensated one never announces an order.
    await ctx.emit("order.placed", {
      id: created.id,
      display_id: created.display_id,
      cart_id: input.cart_id,
      customer_id: input.order.customer_id ?? null,
      email: input.order.email ?? null,
      currency_code: input.order.currency_code,
      total: input.order.totals.total,
      item_count: input.order.items.reduce((sum, i) => sum + i.quantity, 0),
    });
    return {
      output: { id: created.id, display_id: created.display_id },
      compensateInput: { order_id: created.id },
    };
  },
  compensate: async (input: { order_id: string }, ctx) => {
    await ctx.modules.order.delete(input.order_id);
  },
});

/**
 * Cart completion (Medusa's complete-cart): lock and check the cart, and that what it charges for
 * is still what the store offers (else refresh it and stop with `cart_changed`) → reserve
 * inventory → authorize the payment for the cart's total (unless already authorized for exactly
 * that; authorized for another amount: authorized anew) → register promotion usage (a budget used
 * up meanwhile: refresh the cart, `cart_changed`) → mark the cart completed → create the order
 * (`pending`, payment `authorized`, `not_fulfilled`). Each step changes one module. A failing step
 * compensates the ones before it in reverse: cart reopened, budget given back, authorization
 * voided, reservations released. Returns the order id.
 */
export const completeCartWorkflow = workflow("complete-cart", async (input: { cart_id: string }, ctx) => {
  const plan = await ctx.run(prepareCompletionStep, input);
  if (plan.completed_order_id) return { order_id: plan.completed_order_id };
  if (plan.changed) throw cartChangedError(plan.changed);
  if (plan.reserve.lines.length) await ctx.run(reserveLineItemsStep, plan.reserve);
  // A provider that took the money with the authorization (automatic capture) makes the order captured.
  let captured = false;
  if (plan.authorize) captured = (await ctx.run(authorizePaymentSessionStep, plan.authorize)).captured === true;
  if (plan.reauthorize) captured = (await ctx.run(reauthorizeCartPaymentStep, plan.reauthorize)).captured === true;
  if (plan.usages.length)
    await ctx.run(registerPromotionUsage, { usages: plan.usages }).catch(async (error: unknown) => {
      if (!budgetUsedUp(error)) throw error;
      const changed = await ctx.run(refreshStaleCartStep, input);
      // Empty when the budget was given back meanwhile (another checkout compensated): still refused.
      const budget = {
        kind: "promotion_removed" as const,
        id: null,
        message: "a promotion's budget ran out meanwhile",
      };
      throw cartChangedError(changed.length ? changed : [budget]);
    });
  await ctx.run(closeCartStep, { cart_id: input.cart_id, cart_updated_at: plan.cart_updated_at });
  const order = await ctx.run(placeOrderStep, {
    cart_id: input.cart_id,
    order: captured ? { ...plan.order!, payment_status: "captured" as const } : plan.order!,
    actor: plan.actor,
  });
  return { order_id: order.id };
});

/** How a completion ended: an order, or the error that stopped the workflow (the cart stays open). */
export type CompleteCartOutcome = { type: "order"; order_id: string } | { type: "cart"; error: KasseError };

/**
 * Completes a cart, idempotently on its id (docs/CONTRACT.md "Idempotency"). A completed cart answers
 * its order without running anything. Otherwise the workflow runs keyed on the cart
 * (`freshAfterFailure`): concurrent completions share one execution (the engine makes the others
 * wait for its result), while an attempt that failed and was compensated (a declined card) no
 * longer blocks the next one. A missing precondition (`isCheckoutPrecondition`), an unknown cart or
 * someone else's cart is thrown; an error of the workflow is returned as `{type: "cart", error}`
 * (the caller decides which are answered as errors).
 * @example
 * const outcome = await completeCart(app.infra.engine, app.modules, cartId, { customer_id: null });
 */
export async function completeCart(
  engine: Pick<Engine, "execute">,
  m: Modules,
  cartId: string,
  actor: CartActor,
): Promise<CompleteCartOutcome> {
  const cart = await m.cart.retrieve(cartId);
  // As `assertCartAccess`: someone else's cart reads as missing.
  if (cart.customer_id && cart.customer_id !== actor.customer_id)
    throw errors.notFound(`Cart with id: ${cartId} was not found`);
  // Only a completed cart has an order to look for: an open one goes straight to the workflow.
  const placed = cart.completed_at ? await m.order.findByCart(cartId) : undefined;
  if (placed) return { type: "order", order_id: placed.id };
  try {
    const { order_id } = await engine.execute(
      completeCartWorkflow,
      { cart_id: cartId },
      { idempotencyKey: cartId, freshAfterFailure: true },
    );
    return { type: "order", order_id };
  } catch (error) {
    if (!isKasseError(error) || isCheckoutPrecondition(error)) throw error;
    return { type: "cart", error };
  }
}
