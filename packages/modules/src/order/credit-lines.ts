import { generateId } from "@kasse/core";
import { transaction } from "@kasse/db";
import { orderQueries as q, type Order } from "./queries";
import type { OrderCreditLine } from "./column-shapes";
import type { OrderActor, OrderCreditLineCreate } from "./shapes";
import { assertNoActiveChange, keepVersion, stamp } from "./order-edits";
import { assertOpen, createOrderService } from "./service";

const orders = createOrderService();

/** What the order's credit lines credit it: owed no more by the customer (Medusa's `credit_line_total`). */
export const creditLineTotal = (order: Pick<Order, "credit_lines">): number =>
  order.credit_lines.reduce((sum, line) => sum + line.amount, 0);

/**
 * Medusa's order credit lines (`POST /admin/orders/{id}/credit-lines`): each is a confirmed
 * `credit_line` order change making the order's next version, written with the credit line in one
 * transaction under the order's lock. A canceled, archived or draft order, or one with an active
 * change, is refused (400); an unknown order is 404.
 */
export function createCreditLineService() {
  return {
    /** Credits `input.amount` to order `orderId`: the order at its next version with the credit line. */
    async create(orderId: string, input: OrderCreditLineCreate, actor: OrderActor): Promise<Order> {
      return transaction(async () => {
        const order = await orders.lock(orderId);
        assertOpen(order, "credited");
        await assertNoActiveChange(order.id);
        const version = order.version + 1;
        const line: OrderCreditLine = {
          id: generateId("ordcl"),
          order_id: order.id,
          amount: input.amount,
          reference: input.reference,
          reference_id: input.reference_id,
          metadata: input.metadata ?? null,
          version,
          created_at: new Date().toISOString(),
        };
        const { amount, reference, reference_id, metadata } = line;
        const credit = { action: "CREDIT_LINE_ADD" as const, details: { amount, reference, reference_id, metadata } };
        const action = { ...stamp(credit, "credit_line", null, line.id), created_at: line.created_at };
        const change = await q.insertVersionChange(
          {
            id: generateId("ordch"),
            order_id: order.id,
            change_type: "credit_line",
            status: "confirmed",
            version,
            created_by: actor.actor_id,
            confirmed_by: actor.actor_id,
            confirmed_at: new Date(),
            actions: [action],
          },
          `Order ${order.id} already has an active change`,
        );
        await keepVersion(order, change.id);
        await q.setOrder(order.id, { credit_lines: [...order.credit_lines, line], version, updated_at: new Date() });
        await orders.recordChange(
          order.id,
          "credit_line_created",
          actor,
          { version: order.version },
          { version, credit_line_id: line.id, amount: line.amount },
        );
        return orders.retrieve(order.id);
      });
    },
  };
}

export type CreditLineService = ReturnType<typeof createCreditLineService>;
