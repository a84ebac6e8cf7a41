import { definitions } from "@kasse/workflows";
import type { ConvertedDraft, DraftOrderService } from "./draft-orders";
import type { OrderActor } from "./shapes";

const { step } = definitions<{ draftOrder: DraftOrderService }>();

const SYSTEM: OrderActor = { actor_type: null, actor_id: null };

/**
 * Makes a draft an order (`pending`) and records `order.placed` with it, as checkout's order does
 * (released only when the whole conversion succeeds). Order module only; compensation makes it a
 * draft again.
 */
export const convertDraftOrderStep = step("convert-draft-order", {
  invoke: async (input: { draft_order_id: string; actor?: OrderActor | null }, ctx) => {
    const actor = input.actor ?? SYSTEM;
    const { order, converted } = await ctx.modules.draftOrder.convert(input.draft_order_id, actor);
    await ctx.emit("order.placed", {
      id: order.id,
      display_id: order.display_id,
      cart_id: null,
      customer_id: order.customer_id,
      email: order.email,
      currency_code: order.currency_code,
      total: order.total,
      item_count: order.items.reduce((sum, i) => sum + i.quantity, 0),
    });
    return { output: { id: order.id, version: order.version }, compensateInput: { converted, actor } };
  },
  compensate: async (input: { converted: ConvertedDraft; actor: OrderActor }, ctx) => {
    await ctx.modules.draftOrder.undoConvert(input.converted, input.actor);
  },
});
