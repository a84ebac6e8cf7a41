import { errors } from "@kasse/core";
import { step, workflow } from "./definitions";
import type { Modules } from "@kasse/modules";
import { adjustLineReservationsStep } from "@kasse/modules/inventory";
import {
  assertOpen,
  attachPaymentCollectionStep,
  confirmOrderEditStep,
  type AddedItemDetails,
  type Order,
  type OrderActor,
  type OrderEditItemsAdd,
  type OrderEditItemUpdate,
  type OrderEditShippingAdd,
  type OrderEditShippingUpdate,
  type OrderVersionChange,
} from "@kasse/modules/order";
import { createOrderPaymentCollectionStep } from "@kasse/modules/payment";
import { applicable, type TaxTarget } from "@kasse/modules/tax";
import { planChange, type ChangePlan, type PaidSoFar } from "./order-change-plan";
import { syncPaymentStatusStep } from "./order-payment-steps";

/** The summed tax rate (percent) at the order's shipping address for a line's product or a shipping option. */
async function taxRate(m: Modules, order: Order, target: TaxTarget): Promise<number> {
  const address = order.shipping_address;
  if (!address?.country_code) return 0;
  const rates = await m.tax.ratesFor(address.country_code, address.province);
  return applicable(rates, target).reduce((sum, r) => sum + r.rate, 0);
}

/** What the order's collections hold: captured and refunded (the payment module's figures). */
export async function paidSoFar(m: Modules, order: Pick<Order, "payment_collection_ids">): Promise<PaidSoFar> {
  const collections = order.payment_collection_ids.length
    ? await m.payment.listCollections({ id: order.payment_collection_ids })
    : [];
  const sum = (pick: (c: (typeof collections)[number]) => number) => collections.reduce((s, c) => s + pick(c), 0);
  return {
    captured: sum((c) => c.captured_amount),
    refunded: sum((c) => c.refunded_amount),
    requested: sum((c) => (c.status === "canceled" ? 0 : c.amount)),
  };
}

/** The order as its change `change` would leave it (the preview and the confirmation use the same plan). */
export async function planOrderChange(m: Modules, order: Order, change: OrderVersionChange): Promise<ChangePlan> {
  return planChange(order, change, await paidSoFar(m, order));
}

/** The edit `id`, with its order, refused unless the edit is active and the order open. */
async function editAndOrder(m: Modules, id: string) {
  const edit = await m.orderEdit.retrieve(id);
  if (edit.status !== "pending")
    throw errors.invalidData(`Order edit ${id} is ${edit.status}: its actions cannot change`);
  const order = await m.order.retrieve(edit.order_id);
  assertOpen(order, "edited");
  return { edit, order };
}

/**
 * Adds variants to an order edit: each must exist, is priced in the order's currency (unless
 * `unit_price` is given) and taxed at the order's shipping address; 400 and nothing written otherwise.
 */
export async function addOrderEditItems(m: Modules, id: string, input: OrderEditItemsAdd): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, id);
  const ids = [...new Set(input.items.map((i) => i.variant_id))];
  const found = await Promise.all(ids.map((v) => m.product.variantForSale(v)));
  const byId = new Map(found.flatMap((f) => (f?.product ? [[f.variant.id, f] as const] : [])));
  const missing = ids.filter((v) => !byId.has(v));
  if (missing.length) throw errors.invalidData(`Variant with id: ${missing.join(", ")} was not found`);
  const unpriced = input.items.filter((i) => i.unit_price === undefined).map((i) => i.variant_id);
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
  const items = await Promise.all(
    input.items.map(async (item) => {
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
  return m.orderEdit.addItems(id, items);
}

/** Sets an existing line's quantity (and price) on an order edit, taxed at the order's shipping address. */
export async function updateOrderEditItem(
  m: Modules,
  id: string,
  itemId: string,
  input: OrderEditItemUpdate,
): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, id);
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
export async function addOrderEditShipping(
  m: Modules,
  id: string,
  input: OrderEditShippingAdd,
): Promise<OrderVersionChange> {
  const { order } = await editAndOrder(m, id);
  const { items } = await m.fulfillment.listOptions({ id: [input.shipping_option_id] }, { limit: 1, offset: 0 });
  const option = items[0];
  if (!option) throw errors.invalidData(`Shipping option with id: ${input.shipping_option_id} was not found`);
  const priced = (
    await m.fulfillment.optionsForContext({
      region_id: order.region_id,
      currency_code: order.currency_code,
      address: order.shipping_address,
    })
  ).find((o) => o.id === option.id);
  const amount = input.custom_amount ?? priced?.amount;
  if (amount === undefined)
    throw errors.invalidData(`Shipping option ${option.id} has no price for this order: give a custom_amount`);
  const tax_rate = await taxRate(m, order, { shipping_option_id: option.id });
  return m.orderEdit.addShipping(
    id,
    {
      shipping_option_id: option.id,
      name: option.name,
      amount,
      is_tax_inclusive: await m.pricing.taxInclusive(order.currency_code, order.region_id),
      tax_rate,
    },
    input.internal_note,
  );
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
    const plan = await planOrderChange(m, order, edit);
    const location_ids = order.sales_channel_id
      ? await m.stockLocation.locationIdsForSalesChannels([order.sales_channel_id])
      : [];
    return {
      output: {
        order: { id: order.id, region_id: order.region_id, currency_code: order.currency_code },
        application: plan.application,
        summary: plan.summary,
        to_collect: plan.to_collect,
        lines: plan.quantity_changes.map((c) => ({
          line_item_id: c.line.id,
          reservation_line_ids: c.line.cart_line_item_id ? [c.line.id, c.line.cart_line_item_id] : [c.line.id],
          variant_id: c.line.variant_id!,
          delta: c.delta,
        })),
        location_ids,
      },
    };
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
  // Added lines are reserved under their new ids: the order step names them, so stock comes after it.
  const confirmed = await ctx.run(confirmOrderEditStep, {
    plan: plan.application,
    actor: input.actor ?? null,
  });
  const newIds = new Map(plan.application.added_lines.map((l, i) => [l.action_id, confirmed.added_line_ids[i]!]));
  await ctx.run(adjustLineReservationsStep, {
    lines: plan.lines.map((l) => {
      const id = newIds.get(l.line_item_id);
      return id ? { ...l, line_item_id: id, reservation_line_ids: [id] } : l;
    }),
    location_ids: plan.location_ids,
  });
  let payment_collection_id: string | null = null;
  if (plan.to_collect > 0) {
    const collection = await ctx.run(createOrderPaymentCollectionStep, {
      region_id: plan.order.region_id,
      currency_code: plan.order.currency_code,
      amount: plan.to_collect,
    });
    payment_collection_id = collection.id;
    await ctx.run(attachPaymentCollectionStep, { order_id: plan.order.id, payment_collection_id });
  }
  const payment_status = await ctx.run(syncPaymentStatusStep, sync);
  return {
    order_id: plan.order.id,
    version: confirmed.version,
    pending_difference: plan.summary.pending_difference,
    payment_collection_id,
    payment_status,
  };
});
