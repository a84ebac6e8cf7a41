import { errors, generateId } from "@kasse/core";
import { groupBy } from "@kasse/db";
import { fulfillmentQueries as q } from "./queries";
import type { FulfillmentDate, FulfillmentItemRow, FulfillmentRow } from "./schema";
import type { ShipmentCreate } from "./shapes";

/** A fulfillment with its items. */
export type Fulfillment = FulfillmentRow & { items: FulfillmentItemRow[] };

/** What a new fulfillment holds (the flow passes the order lines' snapshot and the consumed reservations). */
export interface FulfillmentRecordCreate {
  order_id: string;
  location_id: string;
  items: Array<{ line_item_id: string; title: string; sku: string | null; quantity: number }>;
  inventory_consumed: FulfillmentRow["inventory_consumed"];
  metadata?: Record<string, unknown> | null;
  /** The provider that created it (default `manual_manual`) and what it answered. */
  provider_id?: string;
  data?: Record<string, unknown>;
}

/** The rows with their items, one statement for all. */
async function attach(rows: FulfillmentRow[]): Promise<Fulfillment[]> {
  const items = await q.itemsOf(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, items: items.get(row.id)! }));
}

/**
 * Fulfillment records of orders: created, shipped, delivered, canceled. The allowed moves are
 * Medusa's: a shipped fulfillment cannot be canceled, only a shipped one can be delivered. Built
 * once per process; every method runs in the transaction in progress, if any.
 */
export function createFulfillmentRecordService() {
  const service = {
    async create(input: FulfillmentRecordCreate): Promise<Fulfillment> {
      const id = generateId("ful");
      await q.insertFulfillments([
        {
          id,
          order_id: input.order_id,
          location_id: input.location_id,
          provider_id: input.provider_id ?? "manual_manual",
          data: input.data ?? {},
          inventory_consumed: input.inventory_consumed,
          metadata: input.metadata ?? null,
        },
      ]);
      await q.insertFulfillmentItems(
        input.items.map((item) => ({ ...item, id: generateId("fulit"), fulfillment_id: id })),
      );
      return service.retrieve(id);
    },

    async retrieve(id: string): Promise<Fulfillment> {
      const row = await q.fulfillment({ id });
      if (!row) throw errors.notFound(`Fulfillment with id: ${id} was not found`);
      return (await attach([row]))[0]!;
    },

    /** The fulfillment of `orderId` (404 when it belongs to another order), locked for the transaction. */
    async lockForOrder(orderId: string, id: string): Promise<Fulfillment> {
      const row = await q.lockFulfillmentOfOrder({ id, order_id: orderId });
      if (!row) throw errors.notFound(`Fulfillment with id: ${id} was not found on order ${orderId}`);
      return (await attach([row]))[0]!;
    },

    /** Every fulfillment of the orders, in one statement per table, keyed by order id. */
    async listForOrders(orderIds: string[]): Promise<Map<string, Fulfillment[]>> {
      if (orderIds.length === 0) return new Map();
      const fulfillments = await attach(await q.fulfillmentsOfOrders(orderIds));
      return groupBy(fulfillments, (f) => f.order_id, { keys: orderIds });
    },

    /**
     * Sets or clears one of the dates (`shipped_at`, `delivered_at`, `canceled_at`), checking the
     * move is allowed. A shipment may name the fulfillment's items (they must be exactly its items:
     * a fulfillment ships whole) and carries the carrier's labels; clearing `shipped_at` drops them.
     */
    async mark(
      orderId: string,
      id: string,
      field: FulfillmentDate,
      value: boolean,
      shipment: ShipmentCreate = {},
    ): Promise<Fulfillment> {
      const current = await service.lockForOrder(orderId, id);
      if (value) {
        if (current.canceled_at) throw errors.invalidData(`Fulfillment ${id} is canceled`);
        if (field === "canceled_at" && current.shipped_at)
          throw errors.invalidData(`Fulfillment ${id} is shipped and cannot be canceled`);
        if (field === "shipped_at" && current.shipped_at)
          throw errors.invalidData(`Fulfillment ${id} is already shipped`);
        if (field === "delivered_at" && !current.shipped_at)
          throw errors.invalidData(`Fulfillment ${id} is not shipped yet`);
        if (field === "delivered_at" && current.delivered_at)
          throw errors.invalidData(`Fulfillment ${id} is already delivered`);
        if (shipment.items) assertWhole(current, shipment.items);
      }
      const labels =
        field !== "shipped_at"
          ? undefined
          : value
            ? (shipment.labels ?? []).map((l) => ({ id: generateId("fulla"), ...l }))
            : [];
      await q.markFulfillment(id, field, value ? new Date() : null, labels);
      return service.retrieve(id);
    },

    /** Removes a fulfillment that never happened (the compensation of its creation). */
    async delete(id: string): Promise<void> {
      await q.deleteFulfillment({ id });
    },
  };
  return service;
}

export type FulfillmentRecordService = ReturnType<typeof createFulfillmentRecordService>;

/**
 * The items a shipment names must be the fulfillment's, each with its whole quantity. An item is
 * named by its order line id (Medusa's dashboard) or by its fulfillment item id (Medusa's SDK docs).
 */
function assertWhole(current: Fulfillment, items: NonNullable<ShipmentCreate["items"]>): void {
  const lineOf = new Map(
    current.items.flatMap((i) => [[i.line_item_id, i.line_item_id] as const, [i.id, i.line_item_id] as const]),
  );
  const named = new Map<string, number>();
  for (const item of items) {
    const lineId = lineOf.get(item.id);
    if (!lineId) throw errors.invalidData(`Item ${item.id} is not in fulfillment ${current.id}`);
    named.set(lineId, (named.get(lineId) ?? 0) + item.quantity);
  }
  for (const { line_item_id, quantity } of current.items) {
    if (named.get(line_item_id) !== quantity)
      throw errors.invalidData(
        `Fulfillment ${current.id} ships whole: item ${line_item_id} has ${quantity} units in it, ${named.get(line_item_id) ?? 0} named`,
      );
  }
}
