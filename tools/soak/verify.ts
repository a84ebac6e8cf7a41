import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@kasse/db";
import type { Receiver } from "./receiver";
import type { StartedCheckout } from "./shoppers";

/** One assertion of the soak: its name and what broke it (empty: it held). */
export interface Verdict {
  name: string;
  failures: string[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until no execution is running or compensating and every released event was dispatched
 * (the workers resume what killed processes left, and deliver the last events), or `timeoutMs`.
 */
export async function settle(db: Db, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [busy] = await queryRows<{ executions: number; events: number }>(
      db,
      sql`select (select count(*)::int from workflow_executions where state in ('running', 'compensating')) as executions,
                 (select count(*)::int from event e left join workflow_executions x on x.id = e.execution_id
                   where e.dispatched_at is null and (e.execution_id is null or x.state = 'succeeded')) as events`,
    );
    if (busy!.executions === 0 && busy!.events === 0) return;
    await pause(1_000);
  }
}

/** The soak's assertions over the database it ran on, the checkouts it started and what the receiver got. */
export async function verify(
  db: Db,
  input: { checkouts: StartedCheckout[]; stockBefore: Map<string, number>; receiver: Receiver },
): Promise<Verdict[]> {
  const cartIds = input.checkouts.map((c) => c.cartId);
  const orders = await queryRows<{ id: string; cart_id: string }>(
    db,
    sql`select id, cart_id from "order" where cart_id in ${list(cartIds)}`,
  );
  const ordersByCart = new Map<string, string[]>();
  for (const o of orders) ordersByCart.set(o.cart_id, [...(ordersByCart.get(o.cart_id) ?? []), o.id]);
  const leftovers = await queryRows<{
    cart_id: string;
    completed: boolean;
    reservations: number;
    live_payments: number;
  }>(
    db,
    sql`select c.id as cart_id, c.completed_at is not null as completed,
               (select count(*)::int from reservation_item r join cart_line_item l on l.id = r.line_item_id where l.cart_id = c.id and r.deleted_at is null) as reservations,
               (select count(*)::int from payment p join payment_collection pc on pc.id = p.payment_collection_id where pc.cart_id = c.id and p.canceled_at is null) as live_payments
          from cart c where c.id in ${list(cartIds)}`,
  );
  const cartState = new Map(leftovers.map((l) => [l.cart_id, l]));

  const outcomes: string[] = [];
  const duplicates: string[] = [];
  for (const checkout of input.checkouts) {
    const placed = ordersByCart.get(checkout.cartId) ?? [];
    const state = cartState.get(checkout.cartId);
    if (placed.length > 1) duplicates.push(`cart ${checkout.cartId} has ${placed.length} orders: ${placed.join(", ")}`);
    if (checkout.conflictingOrders.length)
      duplicates.push(
        `cart ${checkout.cartId}: the client was told of orders ${[checkout.orderId, ...checkout.conflictingOrders].join(", ")}`,
      );
    if (checkout.orderId && !placed.includes(checkout.orderId))
      outcomes.push(`cart ${checkout.cartId}: the client was told of order ${checkout.orderId}, which does not exist`);
    if (placed.length === 0 && state && (state.completed || state.reservations > 0 || state.live_payments > 0)) {
      outcomes.push(
        `cart ${checkout.cartId} (${checkout.kind}) has no order but is not fully compensated: completed ${state.completed}, ${state.reservations} reservations, ${state.live_payments} live payments`,
      );
    }
  }

  const stuck = await queryRows<{ id: string; workflow_id: string; state: string }>(
    db,
    sql`select id, workflow_id, state from workflow_executions where state in ('running', 'compensating', 'compensation_failed') order by id limit 20`,
  );

  // Stock consumed (shipped out, or still held for an order) against units ordered and not returned
  // to stock (a unit received back damaged, dismissed, stays out).
  const stock = await queryRows<{ variant_id: string; stocked: number; reserved: number; ordered: number }>(
    db,
    sql`select v.variant_id, sum(l.stocked_quantity)::int as stocked, sum(l.reserved_quantity)::int as reserved,
               coalesce((select sum(i.quantity - i.return_received_quantity + i.return_dismissed_quantity)::int from order_line_item i join "order" o on o.id = i.order_id
                          where i.variant_id = v.variant_id and o.canceled_at is null and i.deleted_at is null), 0) as ordered
          from inventory_item_variant v join inventory_level l on l.inventory_item_id = v.inventory_item_id
         where v.variant_id in ${list([...input.stockBefore.keys()])} group by v.variant_id`,
  );
  const stockFailures = stock
    .map((s) => ({ ...s, consumed: input.stockBefore.get(s.variant_id)! - s.stocked + s.reserved }))
    .filter((s) => s.consumed !== s.ordered)
    .map(
      (s) =>
        `variant ${s.variant_id}: ${s.consumed} units consumed (stocked ${input.stockBefore.get(s.variant_id)} → ${s.stocked}, reserved ${s.reserved}) but ${s.ordered} ordered`,
    );

  const events = await queryRows<{ order_id: string; n: number }>(
    db,
    sql`select e.data->>'id' as order_id, count(*)::int as n from event e left join workflow_executions x on x.id = e.execution_id
         where e.name = 'order.placed' and (e.execution_id is null or x.state = 'succeeded') group by 1`,
  );
  const eventCount = new Map(events.map((e) => [e.order_id, e.n]));
  const allOrders = new Set(orders.map((o) => o.id));
  const eventFailures = [
    ...orders
      .filter((o) => eventCount.get(o.id) !== 1)
      .map((o) => `order ${o.id} has ${eventCount.get(o.id) ?? 0} order.placed events`),
    ...events
      .filter((e) => !allOrders.has(e.order_id))
      .map((e) => `order.placed for ${e.order_id}, which is no order of the soak`),
    ...orders
      .filter((o) => !input.receiver.placed.has(o.id))
      .map((o) => `order ${o.id}: its order.placed never reached the receiver`),
    ...[...input.receiver.placed]
      .filter(([, ids]) => ids.size > 1)
      .map(([id, ids]) => `order ${id}: the receiver got ${ids.size} different order.placed events`),
  ];

  return [
    { name: "every started checkout has an order or a fully compensated cart", failures: outcomes },
    { name: "no duplicate order (a retried Idempotency-Key or a repeated complete)", failures: duplicates },
    {
      name: "no execution stuck (running, compensating, or compensation_failed)",
      failures: stuck.map((s) => `${s.workflow_id} ${s.id}: ${s.state}`),
    },
    { name: "stock consumed = units ordered (per variant)", failures: stockFailures },
    { name: "exactly one order.placed per order, delivered to the receiver at least once", failures: eventFailures },
  ];
}

/** `(a, b, c)` for `in`; a list that can never match when empty. */
function list(ids: string[]) {
  return ids.length
    ? sql`(${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql`(null)`;
}
