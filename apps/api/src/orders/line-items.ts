import { Type } from "@sinclair/typebox";
import { MetadataView, TimestampView, View } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import type { Order } from "@kasse/modules/order";
import { lineView, OrderLineDetailView } from "./view";

/** One line of an order at a version, as Medusa's `GET /admin/orders/{id}/line-items` answers it (an order item). */
export const OrderItemView = View({
  id: Type.String(),
  order_id: Type.String(),
  item_id: Type.String(),
  version: Type.Integer(),
  history: View({ version: View({ from: Type.Integer(), to: Type.Integer() }) }),
  quantity: Type.Integer(),
  fulfilled_quantity: Type.Integer(),
  shipped_quantity: Type.Integer(),
  delivered_quantity: Type.Integer(),
  return_requested_quantity: Type.Integer(),
  return_received_quantity: Type.Integer(),
  return_dismissed_quantity: Type.Integer(),
  written_off_quantity: Type.Integer(),
  metadata: MetadataView(),
  created_at: TimestampView(),
  updated_at: TimestampView(),
  item: OrderLineDetailView,
});

/**
 * `order` as it was at `version`: itself at its current version, an earlier one with the lines,
 * shipping methods and totals kept when an edit replaced it; `undefined` when there is no such version.
 */
export async function orderAtVersion(modules: Modules, order: Order, version: number): Promise<Order | undefined> {
  if (version === order.version) return order;
  const kept = version < order.version ? await modules.orderEdit.version(order.id, version) : undefined;
  // The credit lines the order had then: each carries the version that wrote it.
  return kept
    ? { ...order, ...kept, credit_lines: order.credit_lines.filter((line) => line.version <= version) }
    : undefined;
}

/**
 * The lines of `order` at `version` (its current one by default), as order items: the line itself
 * under `item`, its progress counts beside it (Medusa's meaning of each, as the order's `detail`
 * has them); `undefined` when there is no such version.
 */
export async function orderItems(modules: Modules, order: Order, version = order.version) {
  const at = await orderAtVersion(modules, order, version);
  return at?.items.map((line) => {
    const item = lineView(line);
    return {
      id: item.id,
      order_id: order.id,
      item_id: item.id,
      version,
      history: { version: { from: version, to: version } },
      ...item.detail,
      written_off_quantity: 0,
      metadata: item.metadata,
      created_at: item.created_at,
      updated_at: item.updated_at,
      item,
    };
  });
}
