import { Type, type TSchema } from "@sinclair/typebox";
import { Extend, OrNull } from "@kasse/db";
import {
  OrderChangeActionView,
  OrderVersionChangeView,
  ReturnChangeView,
  type Order,
  type ReturnChange,
} from "@kasse/modules/order";
import type { Modules } from "@kasse/modules";
import { planOrderChange } from "@kasse/flows";
import { always, parseFields, project } from "../http/fields";
import { orderView } from "./view";
import { adminOrderViews, AdminOrderView, promotionUses, withReturnRequestedTotals } from "./admin-extras";

const adminProperties = (AdminOrderView as unknown as { properties: Record<string, { items?: unknown }> }).properties;
const AdminLineView = adminProperties.items!.items as Parameters<typeof Extend>[0];
const AdminMethodView = adminProperties.shipping_methods!.items as Parameters<typeof Extend>[0];

/** The active change a preview shows: an order edit or a return change (Medusa's `order_change`). */
const PreviewChangeView = Extend(OrderVersionChangeView, {
  ...(ReturnChangeView as unknown as { properties: Record<string, TSchema> }).properties,
  actions: Type.Array(OrderChangeActionView),
  exchange_id: Type.Optional(Type.String()),
  claim_id: Type.Optional(Type.String()),
});

/**
 * The order as it would be once its active change is confirmed (Medusa's order preview):
 * `order_change` is that change (absent when none is active), each line carries the change's
 * `actions` on it. An order edit shows its lines, shipping methods and totals as confirming would
 * write them (the flows' `planChange`), its `summary.pending_difference` the new total less what
 * is paid; added lines and methods are named by their action's id. A return request adds its quantities to the lines' `return_requested_quantity` (and
 * their value to `return_requested_total`), a receipt to `return_received_quantity` (its damaged
 * units also to `return_dismissed_quantity`; in `detail`, where Medusa counts the units asked back
 * and not yet received, the received ones apart from the dismissed ones, it takes them off
 * `return_requested_quantity`).
 */
export const OrderPreviewView = Extend(AdminOrderView, {
  items: Type.Array(Extend(AdminLineView, { actions: Type.Optional(Type.Array(OrderChangeActionView)) })),
  shipping_methods: Type.Array(
    Extend(AdminMethodView, {
      actions: Type.Optional(Type.Array(OrderChangeActionView)),
      /** A pending return request's shipping method: the return it brings back. */
      return_id: Type.Optional(Type.String()),
    }),
  ),
  order_change: Type.Optional(OrNull(PreviewChangeView)),
});

type AdminOrder = Awaited<ReturnType<typeof adminOrderViews>>[number];
/** What an exchange's or claim's preview stamps on each of its actions (see `orderPreview`). */
type StampedAction = { id: string; action: string; details: object };

/** Applies a pending return change to an admin order view. */
function applyChange(order: AdminOrder, change: ReturnChange | null) {
  if (!change) return order;
  const byLine = new Map<string, ReturnChange["actions"]>();
  for (const action of change.actions)
    byLine.set(action.reference_id, [...(byLine.get(action.reference_id) ?? []), action]);
  const request = change.change_type === "return_request";
  const items = order.items.map((item) => {
    const actions = byLine.get(item.id) ?? [];
    const moved = actions.reduce((sum, a) => sum + a.details.quantity, 0);
    const damaged = actions
      .filter((a) => a.action === "RECEIVE_DAMAGED_RETURN_ITEM")
      .reduce((sum, a) => sum + a.details.quantity, 0);
    const { detail } = item;
    return request
      ? {
          ...item,
          return_requested_quantity: item.return_requested_quantity + moved,
          detail: { ...detail, return_requested_quantity: detail.return_requested_quantity + moved },
          actions,
        }
      : {
          ...item,
          return_received_quantity: item.return_received_quantity + moved,
          return_dismissed_quantity: item.return_dismissed_quantity + damaged,
          detail: {
            ...detail,
            return_requested_quantity: detail.return_requested_quantity - moved,
            return_received_quantity: detail.return_received_quantity + moved - damaged,
            return_dismissed_quantity: detail.return_dismissed_quantity + damaged,
          },
          actions,
        };
  });
  return withReturnRequestedTotals({
    ...order,
    items,
    shipping_methods: [...order.shipping_methods, ...returnShippingMethod(order, change)],
    order_change: change,
  });
}

/** A pending request's return shipping as the preview's shipping method, with its `SHIPPING_ADD` action (Medusa's return form reads it there). */
function returnShippingMethod(order: AdminOrder, change: ReturnChange) {
  const shipping = change.shipping;
  if (!shipping) return [];
  const { id, shipping_option_id, name, amount, internal_note, created_at } = shipping;
  return [
    {
      id,
      order_id: order.id,
      return_id: change.return_id,
      rank: order.shipping_methods.length,
      shipping_option_id,
      name,
      amount,
      is_tax_inclusive: false,
      subtotal: amount,
      tax_total: 0,
      discount_total: 0,
      total: amount,
      data: {},
      metadata: null,
      created_at,
      updated_at: created_at,
      actions: [
        {
          id,
          order_change_id: change.id,
          order_id: order.id,
          return_id: change.return_id,
          action: "SHIPPING_ADD",
          reference: "shipping_method",
          reference_id: id,
          details: { shipping_option_id, name, amount },
          amount,
          internal_note,
          created_at,
        },
      ],
    },
  ];
}

/** The order's preview (see {@link OrderPreviewView}), shaped by `fields`. */
export async function orderPreview(modules: Modules, order: string | Order, fields?: string) {
  const selection = always(parseFields(fields), "payment_status", "fulfillment_status");
  const current = typeof order === "string" ? await modules.order.retrieve(order) : order;
  const edit = await modules.orderEdit.activeFor(current.id);
  if (edit) {
    const plan = await planOrderChange(modules, current, edit);
    const edited = { ...current, ...plan.totals, items: plan.items, shipping_methods: plan.shipping_methods };
    const [admin] = await adminOrderViews(modules, [await orderView(modules, edited)], selection);
    // A draft's promotions as its edit leaves them.
    if (plan.promotions && admin!.promotions)
      admin!.promotions = (await promotionUses(modules, new Map([[current.id, plan.promotions!]]))).get(current.id);
    if (edit.change_type === "edit") return project({ ...admin!, order_change: edit }, selection);
    // An exchange or a claim: its inbound units are the return request it holds.
    const owner = await modules.claimExchange.ofChange(edit.id);
    const request = await modules.returnChange.pendingForOrder(current.id);
    const inbound = applyChange(admin!, request);
    // Each action names its exchange or claim, and the inbound ones (returned units, the inbound
    // method) its return, as Medusa's do: the dashboard's forms tell inbound from outbound by them.
    const stamp = <A extends StampedAction>(action: A) => {
      const returning =
        action.action === "RETURN_ITEM" || !!(action.details as { return_id?: string | null }).return_id;
      return {
        ...action,
        [`${edit.change_type}_id`]: owner.id,
        ...(returning ? { return_id: owner.return_id } : {}),
      };
    };
    const order_change = {
      ...edit,
      return_id: owner.return_id,
      [`${edit.change_type}_id`]: owner.id,
      actions: [...(request?.actions ?? []), ...edit.actions].map((a: StampedAction) => stamp(a)),
    };
    // The change's own actions on the lines and methods they add or alter (the order's view leaves them off).
    const planned = new Map<string, StampedAction[]>(
      [...plan.items, ...plan.shipping_methods].map((x) => [x.id, x.actions]),
    );
    const withActions = <X extends { id: string; actions?: StampedAction[] }>(x: X) => {
      const all = [...(x.actions ?? []), ...(planned.get(x.id) ?? [])];
      return { ...x, actions: [...new Map(all.map((a) => [a.id, stamp(a)])).values()] };
    };
    // One array type each (the view's union of two array types has no callable `map`).
    const items = inbound.items as Array<(typeof inbound.items)[number]>;
    const methods = inbound.shipping_methods as Array<(typeof inbound.shipping_methods)[number]>;
    return project(
      {
        ...inbound,
        items: items.map(withActions),
        shipping_methods: methods.map(withActions),
        order_change,
      },
      selection,
    );
  }
  const [view, change] = await Promise.all([
    orderView(modules, current),
    modules.returnChange.pendingForOrder(current.id),
  ]);
  const [admin] = await adminOrderViews(modules, [view], selection);
  return project(applyChange(admin!, change), selection);
}
