import { errors } from "@kasse/core";
import { step, workflow } from "./definitions";
import { consumeLineItemsStep } from "@kasse/modules/inventory";
import { moveOrderLinesStep, type OrderActor } from "@kasse/modules/order";
import { createFulfillmentRecordStep, createProviderFulfillmentStep } from "@kasse/modules/fulfillment";

export interface CreateFulfillmentInput {
  order_id: string;
  items: Array<{ id: string; quantity: number }>;
  location_id: string;
  /** The option whose provider fulfils; the order's shipping method's option when absent. */
  shipping_option_id?: string;
  metadata?: Record<string, unknown> | null;
  actor?: OrderActor | null;
}

/** The lines' reservations must be at the fulfilling location: their units leave stock there. */
const checkReservationLocationStep = step("check-reservation-location", {
  invoke: async (input: { line_item_ids: string[]; location_id: string }, ctx) => {
    const { items } = await ctx.modules.inventory.listReservations(
      { line_item_id: input.line_item_ids },
      { limit: 10_000, offset: 0 },
    );
    const elsewhere = items.find((r) => r.location_id !== input.location_id);
    if (elsewhere)
      throw errors.invalidData(
        `Line item ${elsewhere.line_item_id} is reserved at location ${elsewhere.location_id}, not ${input.location_id}`,
      );
    return { output: null };
  },
});

/**
 * The fulfillment provider of the order: the chosen option's provider when the merchant picked
 * one (it must exist), else its shipping method's option's provider (`manual_manual` when the
 * option is gone or none was chosen), with the option's data and the method's over it. Reads only.
 */
const chooseFulfillmentProviderStep = step("choose-fulfillment-provider", {
  invoke: async (input: { order_id: string; shipping_option_id?: string }, ctx) => {
    if (input.shipping_option_id) {
      const chosen = await ctx.modules.fulfillment.retrieveOption(input.shipping_option_id);
      return { output: { provider_id: chosen.provider_id, data: { ...(chosen.data ?? {}) } } };
    }
    const order = await ctx.modules.order.retrieve(input.order_id);
    const ids = order.shipping_methods.flatMap((m) => (m.shipping_option_id ? [m.shipping_option_id] : []));
    const { items: options } = ids.length
      ? await ctx.modules.fulfillment.listOptions({ id: ids }, { limit: ids.length, offset: 0 })
      : { items: [] };
    const method = order.shipping_methods.find((m) => options.some((o) => o.id === m.shipping_option_id));
    const option = method && options.find((o) => o.id === method.shipping_option_id);
    return {
      output: {
        provider_id: option?.provider_id ?? "manual_manual",
        data: { ...(option?.data ?? {}), ...(method?.data ?? {}) },
      },
    };
  },
});

/**
 * Fulfills order lines at a location: quantities ≤ unfulfilled (order locked, a canceled order
 * refused), the lines' reservations consumed (stocked and reserved both drop at the location),
 * the fulfillment created with its provider (the shipping option's, `manual_manual` by default,
 * called with an idempotency key) and recorded; `fulfillment_status` → `partially_fulfilled` /
 * `fulfilled`. Each step is undone if a later one fails (the provider's fulfillment by its cancel).
 */
export const createFulfillmentWorkflow = workflow("create-fulfillment", async (input: CreateFulfillmentInput, ctx) => {
  const moved = await ctx.run(moveOrderLinesStep, {
    order_id: input.order_id,
    stage: "fulfilled_quantity",
    items: input.items,
    action: "fulfillment_created",
    actor: input.actor ?? null,
  });
  // Reservations are keyed by the cart line checkout reserved for (or the order line itself).
  const reservedFor = (l: (typeof moved.lines)[number]) => l.cart_line_item_id ?? l.id;
  await ctx.run(checkReservationLocationStep, {
    line_item_ids: moved.lines.map(reservedFor),
    location_id: input.location_id,
  });
  const stockLines = moved.lines
    .filter((l) => l.variant_id)
    .map((l) => ({ line_item_id: reservedFor(l), variant_id: l.variant_id!, quantity: l.quantity }));
  const provider = await ctx.run(chooseFulfillmentProviderStep, {
    order_id: input.order_id,
    shipping_option_id: input.shipping_option_id,
  });
  const consumed = stockLines.length ? await ctx.run(consumeLineItemsStep, stockLines) : [];
  const items = moved.lines.map((l) => ({ line_item_id: l.id, quantity: l.quantity }));
  const providerFulfillment = await ctx.run(createProviderFulfillmentStep, {
    provider_id: provider.provider_id,
    order_id: input.order_id,
    location_id: input.location_id,
    items,
    data: provider.data,
  });
  const created = await ctx.run(createFulfillmentRecordStep, {
    order_id: input.order_id,
    location_id: input.location_id,
    provider_id: providerFulfillment.provider_id,
    data: providerFulfillment.data,
    items: moved.lines.map((l) => ({ line_item_id: l.id, title: l.title, sku: l.sku, quantity: l.quantity })),
    inventory_consumed: consumed,
    metadata: input.metadata ?? null,
  });
  return { fulfillment_id: created.id, fulfillment_status: moved.fulfillment_status };
});
