import { errors } from "@kasse/core";
import { step, workflow, type FlowContext } from "./definitions";
import type { Modules } from "@kasse/modules";
import { adjustLineReservationsStep } from "@kasse/modules/inventory";
import {
  assertOpen,
  attachPaymentCollectionStep,
  confirmOrderEditStep,
  type AddedItemDetails,
  type AddedShippingDetails,
  type Deduction,
  type Order,
  type OrderActor,
  type OrderChangeAction,
  type OrderEditItemsAdd,
  type OrderEditItemUpdate,
  type OrderEditShippingAdd,
  type OrderEditService,
  type OrderEditShippingUpdate,
  type OrderVersionChange,
  returnCredit,
  creditLineTotal,
} from "@kasse/modules/order";
import { createOrderPaymentCollectionStep } from "@kasse/modules/payment";
import { summedRate, type TaxTarget } from "@kasse/modules/tax";
import type { ZoneAddress } from "@kasse/modules/fulfillment";
import { planChange, type ChangePlan, type PaidSoFar } from "./order-change-plan";
import { syncPaymentStatusStep } from "./order-payment-steps";
import { withDraftPromotions } from "./draft-promotions";

/** What pricing and taxing a line or method needs of the order (or draft) it goes on. */
export type PricingTarget = Pick<Order, "currency_code" | "region_id"> & { shipping_address: ZoneAddress | null };

/** The summed tax rate (percent) at the order's shipping address for a line's product or a shipping option. */
export async function taxRate(m: Modules, order: PricingTarget, target: TaxTarget): Promise<number> {
  const address = order.shipping_address;
  if (!address?.country_code) return 0;
  const rates = await m.tax.ratesFor(address.country_code, address.province);
  return summedRate(rates, target);
}

/** What the order's collections hold: captured and refunded (the payment module's figures), and what its returns credited. */
export async function paidSoFar(
  m: Modules,
  order: Pick<Order, "id" | "payment_collection_ids" | "items" | "credit_lines">,
): Promise<PaidSoFar> {
  const [collections, returns] = await Promise.all([
    order.payment_collection_ids.length ? m.payment.listCollections({ id: order.payment_collection_ids }) : [],
    m.orderReturn.listForOrders([order.id]),
  ]);
  const sum = (pick: (c: (typeof collections)[number]) => number) => collections.reduce((s, c) => s + pick(c), 0);
  return {
    captured: sum((c) => c.captured_amount),
    refunded: sum((c) => c.refunded_amount),
    requested: sum((c) => (c.status === "canceled" ? 0 : c.amount)),
    // The order's credit lines are owed no more.
    credited: returnCredit(order.items, returns.get(order.id) ?? []) + creditLineTotal(order),
  };
}

/** A change as planning reads it: its actions (a cancel's are planned before its row exists). */
export type PlannedChange = Pick<OrderVersionChange, "id" | "change_type"> & {
  updated_at: Date | string;
  actions: OrderChangeAction[];
};

/**
 * The order as its change `change` would leave it (the preview and the confirmation use the same
 * plan); `deductions` default to what the change takes off (an exchange's, a claim's).
 */
export async function planOrderChange(
  m: Modules,
  order: Order,
  change: PlannedChange,
  deductions?: Deduction[],
): Promise<ChangePlan> {
  const [paid, deducted] = await Promise.all([paidSoFar(m, order), deductions ?? m.claimExchange.deductions(change)]);
  const plan = planChange(order, change, paid, deducted);
  // A draft's promotion codes are priced on what the change leaves it.
  return order.status === "draft" ? withDraftPromotions(m, order, change, plan) : plan;
}

/** The change `id` of `changes`' type, with its order, refused unless the change is pending and the order open. */
async function editAndOrder(m: Modules, changes: OrderEditService, id: string) {
  const edit = await changes.retrieve(id);
  if (edit.status !== "pending") {
    const noun = edit.change_type === "edit" ? "Order edit" : `Order ${edit.change_type}`;
    throw errors.invalidData(`${noun} ${id} is ${edit.status}: its actions cannot change`);
  }
  const order = await m.order.retrieve(edit.order_id);
  // A draft's edit is put together the same way (its own routes begin and confirm it).
  if (order.status !== "draft") assertOpen(order, "edited");
  return { edit, order };
}

/**
 * Adds variants to an order edit: each must exist, is priced in the order's currency (unless
 * `unit_price` is given) and taxed at the order's shipping address; 400 and nothing written otherwise.
 */
export const addOrderEditItems = (m: Modules, id: string, input: OrderEditItemsAdd): Promise<OrderVersionChange> =>
  addChangeItems(m, m.orderEdit, id, input);

/**
 * Adds variants as new lines to the pending change `id` of `changes` (an edit, an exchange's or a
 * claim's outbound items), priced and taxed as {@link addOrderEditItems} says; `free` lines (a
 * replace claim's) cost nothing.
 */
export async function addChangeItems(
  m: Modules,
  changes: OrderEditService,
  id: string,
  input: OrderEditItemsAdd,
  free = false,
): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, changes, id);
  const items = free ? input.items.map((i) => ({ ...i, unit_price: 0 })) : input.items;
  return changes.addItems(id, await pricedItems(m, order, items));
}

/**
 * Variants as lines of `order`: each must exist, is priced in its currency (unless `unit_price` is
 * given) and taxed at its shipping address; 400 otherwise.
 */
export async function pricedItems(
  m: Modules,
  order: PricingTarget,
  items: OrderEditItemsAdd["items"],
): Promise<Array<{ details: AddedItemDetails; internal_note: string | null }>> {
  const ids = [...new Set(items.map((i) => i.variant_id))];
  const found = await Promise.all(ids.map((v) => m.product.variantForSale(v)));
  const byId = new Map(found.flatMap((f) => (f?.product ? [[f.variant.id, f] as const] : [])));
  const missing = ids.filter((v) => !byId.has(v));
  if (missing.length) throw errors.invalidData(`Variant with id: ${missing.join(", ")} was not found`);
  const unpriced = items.filter((i) => i.unit_price === undefined).map((i) => i.variant_id);
  const [priced, inclusive] = await Promise.all([
    unpriced.length
      ? m.pricing.priceVariants([...new Set(unpriced)], {
          currency_code: order.currency_code,
          region_id: order.region_id ?? undefined,
          customer_group_ids: [],
        })
      : undefined,
    m.pricing.taxInclusive(order.currency_code, order.region_id),
  ]);
  return Promise.all(
    items.map(async (item) => {
      const { variant, product } = byId.get(item.variant_id)!;
      const price = priced?.prices.get(item.variant_id);
      if (item.unit_price === undefined && !price)
        throw errors.invalidData(`Variant with id: ${item.variant_id} has no price in ${order.currency_code}`);
      const details: AddedItemDetails = {
        variant_id: variant.id,
        product_id: product!.id,
        title: variant.title,
        subtitle: product!.title,
        thumbnail: product!.thumbnail,
        variant_title: variant.title,
        variant_sku: variant.sku,
        product_title: product!.title,
        product_handle: product!.handle,
        requires_shipping: true,
        is_tax_inclusive: item.unit_price === undefined ? price!.is_calculated_price_tax_inclusive : inclusive,
        quantity: item.quantity,
        unit_price: item.unit_price ?? price!.calculated_amount,
        tax_rate: await taxRate(m, order, { product_id: product!.id, product_type_id: product!.type_id }),
      };
      return { details, internal_note: item.internal_note ?? null };
    }),
  );
}

/** Sets an existing line's quantity (and price) on an order edit, taxed at the order's shipping address. */
export async function updateOrderEditItem(
  m: Modules,
  id: string,
  itemId: string,
  input: OrderEditItemUpdate,
): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, m.orderEdit, id);
  const line = order.items.find((i) => i.id === itemId);
  if (!line) throw errors.invalidData(`Item ${itemId} is not on order ${order.id}`);
  const tax_rate = await taxRate(m, order, { product_id: line.product_id });
  return m.orderEdit.updateItem(
    id,
    itemId,
    { quantity: input.quantity, unit_price: input.unit_price, tax_rate },
    input.internal_note,
  );
}

/** Adds a shipping method of a live shipping option to an order edit, at its price or `custom_amount`. */
export const addOrderEditShipping = (
  m: Modules,
  id: string,
  input: OrderEditShippingAdd,
): Promise<OrderVersionChange> => addChangeShipping(m, m.orderEdit, id, input);

/**
 * Adds a shipping method of a live shipping option to the pending change `id` of `changes`, at its
 * price or `custom_amount`; `returnId` marks an exchange's or claim's inbound method.
 */
export async function addChangeShipping(
  m: Modules,
  changes: OrderEditService,
  id: string,
  input: OrderEditShippingAdd,
  returnId?: string,
): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, changes, id);
  const details = await pricedShipping(m, order, input, returnId !== undefined);
  return changes.addShipping(id, { ...details, ...(returnId ? { return_id: returnId } : {}) }, input.internal_note);
}

/**
 * A live shipping option as a method of `order`, at its price there or `custom_amount`, taxed; 400
 * otherwise. An `inbound` method (an exchange's or claim's way back) is priced as a return option
 * is (Medusa's `is_return` rule, not offered at checkout), any other as the checkout offers it.
 */
export async function pricedShipping(
  m: Modules,
  order: PricingTarget,
  input: Pick<OrderEditShippingAdd, "shipping_option_id" | "custom_amount">,
  inbound = false,
): Promise<AddedShippingDetails> {
  const { items } = await m.fulfillment.listOptions({ id: [input.shipping_option_id] }, { limit: 1, offset: 0 });
  const option = items[0];
  if (!option) throw errors.invalidData(`Shipping option with id: ${input.shipping_option_id} was not found`);
  const context = { region_id: order.region_id, currency_code: order.currency_code };
  const priced = (
    inbound
      ? await m.fulfillment.returnOptionsFor(context)
      : await m.fulfillment.optionsForContext({ ...context, address: order.shipping_address })
  ).find((o) => o.id === option.id);
  const amount = input.custom_amount ?? priced?.amount;
  if (amount === undefined)
    throw errors.invalidData(`Shipping option ${option.id} has no price for this order: give a custom_amount`);
  return {
    shipping_option_id: option.id,
    name: option.name,
    amount,
    is_tax_inclusive: await m.pricing.taxInclusive(order.currency_code, order.region_id),
    tax_rate: await taxRate(m, order, { shipping_option_id: option.id }),
  };
}

/** Changes an added shipping method's price on an order edit. */
export async function updateOrderEditShipping(
  m: Modules,
  id: string,
  actionId: string,
  input: OrderEditShippingUpdate,
): Promise<OrderVersionChange> {
  return m.orderEdit.updateAddedShipping(id, actionId, {
    amount: input.custom_amount,
    internal_note: input.internal_note,
  });
}

export interface ConfirmOrderEditInput {
  order_edit_id: string;
  actor?: OrderActor | null;
}

/** Plans the confirmation from the edit's actions (reads only): refused unless the edit is active and the order open. */
const planOrderEditStep = step("plan-order-edit", {
  invoke: async (input: { order_edit_id: string }, ctx) => {
    const m = ctx.modules;
    const edit = await m.orderEdit.retrieve(input.order_edit_id);
    if (edit.status !== "pending" && edit.status !== "requested")
      throw errors.invalidData(`Order edit ${edit.id} is ${edit.status}`);
    const order = await m.order.retrieve(edit.order_id);
    assertOpen(order, "edited");
    return { output: await confirmationPlan(m, order, edit) };
  },
});

/**
 * Confirms an order edit (Medusa's `POST /admin/order-edits/{id}/confirm`) as one saga: the plan
 * (the same `planChange` the preview shows; reads only), the order's next version with
 * `order.updated` and `order-edit.confirmed` (refused when another confirmation won), the stock
 * for the quantity differences only (added units reserved, removed ones released), a payment
 * collection for an amount owed that the order's collections do not already ask for, and the
 * payment status re-derived. An amount due back stays on the order's summary (`pending_difference`
 * < 0, never more than is captured) for a refund. A failure at any step undoes the ones before it.
 */
export const confirmOrderEditWorkflow = workflow("confirm-order-edit", async (input: ConfirmOrderEditInput, ctx) => {
  const plan = await ctx.run(planOrderEditStep, { order_edit_id: input.order_edit_id });
  const sync = { order_id: plan.order.id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  const confirmed = await ctx.run(confirmOrderEditStep, {
    plan: plan.application,
    pending_difference: plan.summary.pending_difference,
    actor: input.actor ?? null,
  });
  const settled = await settleConfirmedChange(ctx, plan, confirmed.added_line_ids, input.actor ?? null);
  return { order_id: plan.order.id, version: confirmed.version, ...settled };
});

/** What a change's confirmation needs from its plan (reads only; journaled as JSON). */
export async function confirmationPlan(m: Modules, order: Order, change: PlannedChange, deductions?: Deduction[]) {
  const plan = await planOrderChange(m, order, change, deductions);
  const location_ids = order.sales_channel_id
    ? await m.stockLocation.locationIdsForSalesChannels([order.sales_channel_id])
    : [];
  return {
    order: { id: order.id, region_id: order.region_id, currency_code: order.currency_code, total: order.total },
    application: plan.application,
    summary: plan.summary,
    to_collect: plan.to_collect,
    deducted: plan.deducted,
    lines: plan.quantity_changes.map((c) => ({
      // The key the line's reservations carry, which fulfilment reads: its cart line's when it came from a cart.
      line_item_id: c.line.cart_line_item_id ?? c.line.id,
      reservation_line_ids: c.line.cart_line_item_id ? [c.line.id, c.line.cart_line_item_id] : [c.line.id],
      variant_id: c.line.variant_id!,
      delta: c.delta,
    })),
    location_ids,
  };
}

/**
 * Asks for `amount` an order owes (none when it is 0): a new payment collection (undo: deleted)
 * attached to the order (undo: detached). Answers its id, or null.
 */
export async function collectOwed(
  ctx: FlowContext,
  order: { id: string; region_id: string | null; currency_code: string },
  amount: number,
): Promise<string | null> {
  if (amount <= 0) return null;
  const collection = await ctx.run(createOrderPaymentCollectionStep, {
    region_id: order.region_id,
    currency_code: order.currency_code,
    amount,
  });
  await ctx.run(attachPaymentCollectionStep, { order_id: order.id, payment_collection_id: collection.id });
  return collection.id;
}

/**
 * The steps after a change's new version (an edit's, an exchange's, a claim's): the stock for the
 * quantity differences (added lines reserved under the ids the order step gave them, so stock comes
 * after it), a payment collection for an amount owed that the order's collections do not already
 * ask for, and the payment status re-derived.
 */
export async function settleConfirmedChange(
  ctx: FlowContext,
  plan: ConfirmationPlan,
  addedLineIds: string[],
  actor: OrderActor | null,
): Promise<{ pending_difference: number; payment_collection_id: string | null; payment_status: unknown }> {
  const newIds = new Map(plan.application.added_lines.map((l, i) => [l.action_id, addedLineIds[i]!]));
  await ctx.run(adjustLineReservationsStep, {
    lines: plan.lines.map((l) => {
      const id = newIds.get(l.line_item_id);
      return id ? { ...l, line_item_id: id, reservation_line_ids: [id] } : l;
    }),
    location_ids: plan.location_ids,
  });
  const payment_collection_id = await collectOwed(ctx, plan.order, plan.to_collect);
  const payment_status = await ctx.run(syncPaymentStatusStep, { order_id: plan.order.id, actor });
  return { pending_difference: plan.summary.pending_difference, payment_collection_id, payment_status };
}

/** What {@link confirmationPlan} answers. */
export type ConfirmationPlan = Awaited<ReturnType<typeof confirmationPlan>>;
