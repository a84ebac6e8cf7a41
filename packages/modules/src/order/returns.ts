import { and, asc, count, eq, inArray } from "drizzle-orm";
import { errors, generateId, type Db, type Paging } from "@kasse/db";
import { orderReturn, orderReturnItem, type OrderActor, type OrderReturnItemRow, type OrderReturnRow, type ReturnCreate } from "./schema";
import { createOrderService } from "./service";
import { createReturnReasonService } from "./return-reasons";

/** A return with its items. */
export type OrderReturn = OrderReturnRow & { items: OrderReturnItemRow[] };

/**
 * Returns of fulfilled units: requested (quantities ≤ fulfilled − already requested, reasons must
 * exist), then received (the lines' received quantities rise; the flow restocks the location).
 */
export function createReturnService(db: Db) {
  const service = {
    /** Requests a return; the order row is locked and the lines' `return_requested_quantity` rises. */
    async create(orderId: string, input: ReturnCreate, actor: OrderActor | undefined, tx: Db = db): Promise<OrderReturn> {
      const reasonIds = [...new Set(input.items.flatMap((i) => (i.reason_id ? [i.reason_id] : [])))];
      const known = await createReturnReasonService(tx).existing(reasonIds, tx);
      const unknown = reasonIds.find((id) => !known.has(id));
      if (unknown) throw errors.invalidData(`Return reason ${unknown} was not found`);
      const order = await createOrderService(tx).moveLineQuantities(orderId, "return_requested_quantity", input.items.map((i) => ({ id: i.id, quantity: i.quantity })), "return_requested", actor, tx);
      if (order.status === "canceled") throw errors.invalidData(`Order ${orderId} is canceled`);
      const id = generateId("ret");
      await tx.insert(orderReturn).values({ id, order_id: orderId, location_id: input.location_id, metadata: input.metadata ?? null });
      await tx.insert(orderReturnItem).values(input.items.map((i) => ({ id: generateId("retitem"), return_id: id, line_item_id: i.id, quantity: i.quantity, reason_id: i.reason_id ?? null })));
      return service.retrieve(id, tx);
    },

    /** Removes a requested return and gives its lines' requested quantities back (a creation's compensation). */
    async remove(id: string, tx: Db = db): Promise<void> {
      const existing = await service.retrieve(id, tx);
      await createOrderService(tx).moveLineQuantities(existing.order_id, "return_requested_quantity", existing.items.map((i) => ({ id: i.line_item_id, quantity: -i.quantity })), "return_request_reverted", undefined, tx);
      await tx.delete(orderReturn).where(eq(orderReturn.id, id));
    },

    async retrieve(id: string, tx: Db = db): Promise<OrderReturn> {
      const [row] = await tx.select().from(orderReturn).where(eq(orderReturn.id, id));
      if (!row) throw errors.notFound(`Return with id: ${id} was not found`);
      return (await attach(tx, [row]))[0]!;
    },

    async list(filters: { order_id?: string[]; status?: string[] }, page: Paging, tx: Db = db): Promise<{ items: OrderReturn[]; count: number }> {
      const conditions = [];
      if (filters.order_id?.length) conditions.push(inArray(orderReturn.order_id, filters.order_id));
      if (filters.status?.length) conditions.push(inArray(orderReturn.status, filters.status as OrderReturnRow["status"][]));
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        tx.select().from(orderReturn).where(where).orderBy(asc(orderReturn.created_at), asc(orderReturn.id)).limit(page.limit).offset(page.offset),
        tx.select({ count: count() }).from(orderReturn).where(where),
      ]);
      return { items: await attach(tx, rows), count: total?.count ?? 0 };
    },

    /** Every return of the orders (one query per table), keyed by order id. */
    async listForOrders(orderIds: string[], tx: Db = db): Promise<Map<string, OrderReturn[]>> {
      const out = new Map<string, OrderReturn[]>(orderIds.map((id) => [id, []]));
      if (orderIds.length === 0) return out;
      const rows = await tx.select().from(orderReturn).where(inArray(orderReturn.order_id, orderIds)).orderBy(asc(orderReturn.created_at), asc(orderReturn.id));
      for (const r of await attach(tx, rows)) out.get(r.order_id)?.push(r);
      return out;
    },

    /**
     * Receives a requested return in full (`orderId` given: it must be that order's): the return
     * and its items are marked received and the lines' `return_received_quantity` rises. With
     * `undo`, puts it back to requested (the compensation).
     */
    async receive(id: string, orderId: string | null, actor: OrderActor | undefined, tx: Db = db, undo = false): Promise<OrderReturn> {
      const [row] = await tx.select().from(orderReturn).where(eq(orderReturn.id, id)).for("update");
      if (!row || (orderId && row.order_id !== orderId)) throw errors.notFound(`Return with id: ${id} was not found${orderId ? ` on order ${orderId}` : ""}`);
      if (!undo && row.status !== "requested") throw errors.invalidData(`Return ${id} is ${row.status}`);
      const existing = (await attach(tx, [row]))[0]!;
      await createOrderService(tx).moveLineQuantities(row.order_id, "return_received_quantity", existing.items.map((i) => ({ id: i.line_item_id, quantity: undo ? -i.quantity : i.quantity })), undo ? "return_receipt_reverted" : "return_received", actor, tx);
      await tx.update(orderReturn).set({ status: undo ? "requested" : "received", received_at: undo ? null : new Date() }).where(eq(orderReturn.id, id));
      for (const item of existing.items) await tx.update(orderReturnItem).set({ received_quantity: undo ? 0 : item.quantity }).where(eq(orderReturnItem.id, item.id));
      return service.retrieve(id, tx);
    },
  };
  return service;
}

export type ReturnService = ReturnType<typeof createReturnService>;

async function attach(tx: Db, rows: OrderReturnRow[]): Promise<OrderReturn[]> {
  if (rows.length === 0) return [];
  const items = await tx.select().from(orderReturnItem).where(inArray(orderReturnItem.return_id, rows.map((r) => r.id))).orderBy(asc(orderReturnItem.id));
  return rows.map((row) => ({ ...row, items: items.filter((i) => i.return_id === row.id) }));
}
