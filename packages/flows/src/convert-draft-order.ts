import { errors } from "@kasse/core";
import { step, workflow } from "./definitions";
import { reserveLineItemsStep, type ReserveForLinesInput } from "@kasse/modules/inventory";
import { attachPaymentCollectionStep, convertDraftOrderStep, type OrderActor } from "@kasse/modules/order";
import { createOrderPaymentCollectionStep } from "@kasse/modules/payment";
import { registerPromotionUsage } from "@kasse/modules/promotion";
import { syncPaymentStatusStep } from "./order-payment-steps";
import { reservableLines } from "./reservable-lines";

export interface ConvertDraftOrderInput {
  draft_order_id: string;
  actor?: OrderActor | null;
}

/**
 * Reads what converting needs (reads only): the draft (404 unknown, 400 when it is no longer a
 * draft, has no lines or an active edit, or a promotion whose campaign's budget is used up), its
 * promotions' usages, its lines to reserve (variants that manage inventory;
 * custom lines and the others are sold without reservations, as at checkout) and its sales
 * channel's stock locations.
 */
const planDraftConversionStep = step("plan-draft-conversion", {
  invoke: async (input: { draft_order_id: string }, ctx) => {
    const m = ctx.modules;
    const order = await m.order.retrieve(input.draft_order_id);
    if (order.status !== "draft") throw errors.invalidData(`Order ${order.id} is ${order.status}, not a draft order`);
    if (order.items.length === 0) throw errors.invalidData(`Draft order ${order.id} has no items`);
    const active = await m.orderEdit.activeFor(order.id);
    if (active)
      throw errors.invalidData(`Draft order ${order.id} has an active edit (${active.id}): confirm or cancel it`);
    const variantIds = [...new Set(order.items.flatMap((i) => (i.variant_id ? [i.variant_id] : [])))];
    const [variants, location_ids, promotions] = await Promise.all([
      m.product.inventoryFlags(variantIds),
      order.sales_channel_id ? m.stockLocation.locationIdsForSalesChannels([order.sales_channel_id]) : [],
      m.order.promotionsOf([order.id]),
    ]);
    const usages = promotions.get(order.id) ?? [];
    const short = usages.length ? await m.promotion.budgetsShort(usages) : [];
    if (short.length)
      throw errors.invalidData(
        `The budget of campaign ${short[0]!.campaign_id} is used up: take the draft's promotion ${short[0]!.promotion_id} off to convert it`,
        { details: { campaign_id: short[0]!.campaign_id, reason: "budget_exhausted" } },
      );
    // Custom lines (no variant) and lines an edit took to 0 hold no stock.
    const stocked = order.items.flatMap((i) =>
      i.variant_id && i.quantity > 0 ? [{ ...i, variant_id: i.variant_id }] : [],
    );
    const lines = reservableLines(stocked, variants);
    const reserve: ReserveForLinesInput = { lines, location_ids, strategy: "single_location_first" };
    return {
      output: {
        order: { id: order.id, region_id: order.region_id, currency_code: order.currency_code, total: order.total },
        reserve,
        usages,
      },
    };
  },
});

/**
 * Converts a draft order to an order (Medusa's `POST /admin/draft-orders/{id}/convert-to-order`)
 * as one saga: the plan (reads only); the order `pending`, with `order.placed` recorded (the
 * draft's lock makes a second conversion racing it wait and be refused); its promotions' usage
 * registered against their campaigns' budgets (as checkout registers it); its lines reserved as
 * checkout reserves them (at a location of its sales channel that has the stock); a payment
 * collection for its total, attached to it, for the admin to settle (the draft had no payment);
 * the payment status re-derived (`awaiting`). A failure at any step undoes the ones before it:
 * the draft is a draft again, the budgets given back, its reservations released, the collection removed, and
 * `order.placed` never announced.
 */
export const convertDraftOrderWorkflow = workflow("convert-draft-order", async (input: ConvertDraftOrderInput, ctx) => {
  const plan = await ctx.run(planDraftConversionStep, { draft_order_id: input.draft_order_id });
  const actor = input.actor ?? null;
  await ctx.run(convertDraftOrderStep, { draft_order_id: plan.order.id, actor });
  // Its promotions use their campaigns' budgets as a checkout's do (a conversion racing for the last of one is refused).
  if (plan.usages.length) await ctx.run(registerPromotionUsage, { usages: plan.usages });
  if (plan.reserve.lines.length) await ctx.run(reserveLineItemsStep, plan.reserve);
  let payment_collection_id: string | null = null;
  if (plan.order.total > 0) {
    const collection = await ctx.run(createOrderPaymentCollectionStep, {
      region_id: plan.order.region_id,
      currency_code: plan.order.currency_code,
      amount: plan.order.total,
    });
    payment_collection_id = collection.id;
    await ctx.run(attachPaymentCollectionStep, { order_id: plan.order.id, payment_collection_id });
  }
  const payment_status = await ctx.run(syncPaymentStatusStep, { order_id: plan.order.id, actor });
  return { order_id: plan.order.id, payment_collection_id, payment_status };
});
