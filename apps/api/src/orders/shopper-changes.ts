import { Type } from "@sinclair/typebox";
import { FileUrlView, MoneyView, Strict } from "@kasse/core";
import {
  ORDER_CHANGE_TYPES,
  type Order,
  type OrderChangeActionOf,
  type OrderVersionChange,
  type ReturnChange,
} from "@kasse/modules/order";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * One action of a change as its customer sees it: what happened to which line or shipping method,
 * with the units and money it moved. Never an action's internal note, nor the metadata the admin
 * gave a credit line.
 */
const ShopperChangeActionView = Strict({
  id: Type.String(),
  /** Medusa's action name (`ITEM_ADD`, `ITEM_UPDATE`, `RETURN_ITEM`, `WRITE_OFF_ITEM`, `SHIPPING_ADD`, …). */
  action: Type.String(),
  /** The order line the action is about (null for an added line until it is one, a method, a credit). */
  line_item_id: Nullable(Type.String()),
  /** The line's title, or the shipping method's name. */
  title: Nullable(Type.String()),
  variant_title: Nullable(Type.String()),
  product_title: Nullable(Type.String()),
  thumbnail: Nullable(FileUrlView()),
  /** Units added, the line's new quantity (`ITEM_UPDATE`), units returned, received or claimed. */
  quantity: Nullable(Type.Integer()),
  unit_price: Nullable(MoneyView()),
  /** The money the action moves before tax (a removed shipping method's is negative). */
  amount: Nullable(MoneyView()),
  /** A claimed item's reason (Medusa's claim reasons). */
  reason: Nullable(Type.String()),
});

/**
 * An order change as the order's customer sees it (`GET /store/orders/{id}/changes`, a Kasse
 * extension): its kind, state, the version it made and its actions. A strict schema: the admin
 * view's notes, actors (`created_by`, `confirmed_by`, …), description and metadata are not listed,
 * so nothing of them can be answered.
 */
export const ShopperChangeView = Strict({
  id: Type.String(),
  order_id: Type.String(),
  change_type: Type.Union(ORDER_CHANGE_TYPES.map((t) => Type.Literal(t))),
  status: Type.String(),
  /** The order version the change made (null for a return's request or receipt: they make none). */
  version: Nullable(Type.Integer()),
  /** The return a return request or receipt is about. */
  return_id: Nullable(Type.String()),
  created_at: Type.String({ format: "date-time" }),
  confirmed_at: Nullable(Type.String({ format: "date-time" })),
  /** The order's: what the amounts are in. */
  currency_code: Type.String(),
  actions: Type.Array(ShopperChangeActionView),
});

type ShopperAction = {
  id: string;
  action: string;
  line_item_id: string | null;
  title: string | null;
  variant_title: string | null;
  product_title: string | null;
  thumbnail: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
  reason: string | null;
};

const NOTHING = {
  line_item_id: null,
  title: null,
  variant_title: null,
  product_title: null,
  thumbnail: null,
  quantity: null,
  unit_price: null,
  amount: null,
  reason: null,
} as const;

/** What a line of the order tells about itself. */
function lineOf(order: Order, id: string) {
  const line = order.items.find((i) => i.id === id);
  return {
    line_item_id: id,
    title: line?.title ?? null,
    variant_title: line?.variant_title ?? null,
    product_title: line?.product_title ?? null,
    thumbnail: line?.thumbnail ?? null,
  };
}

function editAction(order: Order, a: OrderChangeActionOf): ShopperAction {
  const base = { id: a.id, action: a.action };
  switch (a.action) {
    case "ITEM_ADD":
      return {
        ...base,
        ...NOTHING,
        title: a.details.title,
        variant_title: a.details.variant_title,
        product_title: a.details.product_title,
        thumbnail: a.details.thumbnail,
        quantity: a.details.quantity,
        unit_price: a.details.unit_price,
        amount: a.amount,
      };
    case "ITEM_UPDATE":
      return {
        ...base,
        ...NOTHING,
        ...lineOf(order, a.reference_id),
        quantity: a.details.quantity,
        unit_price: a.details.unit_price,
        amount: a.amount,
      };
    case "WRITE_OFF_ITEM":
      return {
        ...base,
        ...NOTHING,
        ...lineOf(order, a.reference_id),
        quantity: a.details.quantity,
        reason: a.details.reason,
      };
    case "SHIPPING_ADD":
      return { ...base, ...NOTHING, title: a.details.name, amount: a.amount };
    case "SHIPPING_REMOVE": {
      const method = order.shipping_methods.find((m) => m.id === a.reference_id);
      return { ...base, ...NOTHING, title: method?.name ?? null, amount: a.amount };
    }
    case "CREDIT_LINE_ADD":
      return { ...base, ...NOTHING, amount: a.amount };
    // A code the admin added to or took off the order while it was a draft: its discount is in the lines.
    case "PROMOTION_ADD":
    case "PROMOTION_REMOVE":
      return { ...base, ...NOTHING, title: a.details.code };
  }
}

function returnActions(order: Order, change: ReturnChange): ShopperAction[] {
  const items = change.actions.map((a) => ({
    id: a.id,
    action: a.action,
    ...NOTHING,
    ...lineOf(order, a.reference_id),
    quantity: a.details.quantity,
  }));
  const shipping = change.shipping;
  if (!shipping) return items;
  // A return request's shipping method: what it costs comes off what the return refunds.
  return [
    ...items,
    { id: shipping.id, action: "SHIPPING_ADD", ...NOTHING, title: shipping.name, amount: shipping.amount },
  ];
}

/** The changes of `order` as its customer is shown them (see {@link ShopperChangeView}). */
export function shopperChanges(order: Order, changes: Array<OrderVersionChange | ReturnChange>) {
  return changes.map((change) => {
    const isReturn = "return_id" in change;
    return {
      id: change.id,
      order_id: change.order_id,
      change_type: change.change_type,
      status: change.status,
      version: isReturn ? null : change.version,
      return_id: isReturn ? change.return_id : null,
      created_at: change.created_at.toISOString(),
      confirmed_at: change.confirmed_at?.toISOString() ?? null,
      currency_code: order.currency_code,
      actions: isReturn
        ? returnActions(order, change)
        : (change.actions as OrderChangeActionOf[]).map((a) => editAction(order, a)),
    };
  });
}
