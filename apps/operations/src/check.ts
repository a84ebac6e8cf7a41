import { readSnapshot } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import { completeCartWorkflow } from "@kasse/flows";
import { activeExecutionKeys, overdueExecutions, stuckAfterMs } from "@kasse/workflows";

/** One broken invariant: the id of the offending row and what is wrong with it. */
interface Violation {
  id: string;
  problem: string;
}

/** The outcome of one invariant check: no violations means it holds. At most `cap` violations are listed. */
export interface CheckResult {
  name: string;
  violations: Violation[];
}

const BATCH = 1000;

/**
 * The invariants `kasse check` verifies, read-only: each module checks its own tables with
 * aggregate SQL; the checks spanning modules page through one side by id, `BATCH` rows at a time,
 * and ask the other module about each batch (in the snapshot). Each check stops after `cap` violations. All of them
 * read one snapshot (a read-only repeatable-read transaction), so a checkout committing meanwhile
 * cannot show up half done.
 * `leaseMs` and `recoveryEveryMs` are the configured lease and recovery sweep period
 * (`WORKFLOW_LEASE_MS`, `WORKFLOW_RECOVERY_MS`): an execution whose lease expired longer ago than
 * {@link stuckAfterMs} of them should have been resumed.
 */
export function checkInvariants(
  m: Modules,
  options: { leaseMs: number; recoveryEveryMs: number; cap?: number },
): Promise<CheckResult[]> {
  return readSnapshot(() => checkSnapshot(m, stuckAfterMs(options), options.cap ?? 50));
}

async function checkSnapshot(m: Modules, stuckMs: number, cap: number): Promise<CheckResult[]> {
  const { inventory, payment: payments, order: orders, cart: carts, product: products, promotion: promotions } = m;
  return [
    {
      name: "inventory levels: quantities non-negative, reserved = the sum of their reservations",
      violations: await inventory.checkLevels(cap),
    },
    {
      name: "reservations: each for a line of a live order, or of a cart being completed",
      violations: await orphanReservations(),
    },
    {
      name: "order lines: what a live order has not fulfilled is reserved (ordered − canceled = reserved + fulfilled)",
      violations: await unreservedLines(),
    },
    {
      name: "promotions: a campaign budget's usage = the orders that used its promotions",
      violations: await budgetUsage(),
    },
    {
      name: "payments: authorized ≥ captured ≥ refunded (per payment and per payment collection)",
      violations: await payments.checkAmounts(cap),
    },
    {
      name: "payments: an order's live authorizations and its captures, net of refunds, each at most its (highest) total",
      violations: await paymentsAboveTotal(),
    },
    { name: "carts: exactly one order per completed cart", violations: await cartOrders() },
    {
      name: `workflow executions: none running with a lease expired over ${stuckMs / 1000} s ago, none compensation_failed without a retry planned`,
      violations: await overdueExecutions(stuckMs, cap),
    },
  ];

  async function orphanReservations(): Promise<Violation[]> {
    return scanPages(
      (after, limit) => inventory.reservationLinesPage(after, limit),
      (r) => r.id,
      async (page, out) => {
        const lineIds = [...new Set(page.map((r) => r.line_item_id))];
        const onOrders = await orders.liveOrderLineIds(lineIds);
        // Checkout reserves for the cart's lines before it places the order: fine while that completion runs.
        const cartLines = await carts.openCartLines(lineIds.filter((id) => !onOrders.has(id)));
        const completing = await activeExecutionKeys(completeCartWorkflow.name, [...new Set(cartLines.values())]);
        for (const r of page) {
          if (onOrders.has(r.line_item_id)) continue;
          const cartId = cartLines.get(r.line_item_id);
          if (cartId && completing.has(cartId)) continue;
          out.push({
            id: r.id,
            problem: cartId
              ? `reserves for line item ${r.line_item_id} of cart ${cartId}, which is not being completed`
              : `reserves for line item ${r.line_item_id}, which is on no live order`,
          });
        }
      },
    );
  }

  async function unreservedLines(): Promise<Violation[]> {
    return scanPages(
      (after, limit) => orders.unfulfilledLinesPage(after, limit),
      (l) => l.id,
      async (page, out) => {
        const variantIds = [...new Set(page.map((l) => l.variant_id))];
        const [variants, links, reserved] = await Promise.all([
          products.listVariants({ id: variantIds }, { limit: variantIds.length, offset: 0 }),
          inventory.listVariantInventoryItems(variantIds),
          inventory.reservedForLines(
            page.flatMap((l) => [l.id, l.cart_line_item_id].filter((id): id is string => id !== null)),
          ),
        ]);
        // Variants that do not manage inventory are sold without reservations; a deleted variant's lines are not checked.
        const managed = new Set(variants.items.filter((v) => v.manage_inventory).map((v) => v.id));
        for (const line of page) {
          if (!managed.has(line.variant_id)) continue;
          const perUnit = (links.get(line.variant_id) ?? []).reduce((n, l) => n + l.required_quantity, 0);
          const held =
            (reserved.get(line.id) ?? 0) + (line.cart_line_item_id ? (reserved.get(line.cart_line_item_id) ?? 0) : 0);
          if (held !== line.outstanding * perUnit)
            out.push({
              id: line.id,
              problem: `${line.outstanding} unit(s) of variant ${line.variant_id} not fulfilled, but its reservations hold ${held} (expected ${line.outstanding * perUnit})`,
            });
        }
      },
    );
  }

  async function budgetUsage(): Promise<Violation[]> {
    return scanPages(
      (after, limit) => promotions.budgetsPage(after, limit),
      (b) => b.campaign_id,
      async (page, out) => {
        for (const budget of page) {
          const use = await orders.promotionUse(budget.promotion_ids);
          const expected = budget.type === "usage" ? use.orders : use.amount;
          if (budget.used !== expected)
            out.push({
              id: budget.campaign_id,
              problem: `its ${budget.type} budget counts ${budget.used} but the orders that used its promotions make ${expected} (${use.orders} order(s), ${use.amount} discounted)`,
            });
        }
      },
    );
  }

  async function paymentsAboveTotal(): Promise<Violation[]> {
    return scanPages(
      (after, limit) => orders.paymentTotalsPage(after, limit),
      (o) => o.id,
      async (page, out) => {
        const ids = [...new Set(page.flatMap((o) => o.payment_collection_ids))];
        const collections = new Map(
          (ids.length ? await payments.listCollections({ id: ids }) : []).map((c) => [c.id, c]),
        );
        for (const order of page) {
          const mine = order.payment_collection_ids.flatMap((id) => collections.get(id) ?? []);
          // Refunded money is held no more: a refund paid out for a claim that was then canceled is
          // charged again, so what the payments hold is counted net of refunds.
          const refunded = mine.reduce((n, c) => n + c.refunded_amount, 0);
          const authorized =
            mine.flatMap((c) => c.payments).reduce((n, p) => n + (p.canceled_at ? 0 : p.amount), 0) - refunded;
          const captured = mine.reduce((n, c) => n + c.captured_amount, 0) - refunded;
          if (authorized > order.total || captured > order.total)
            out.push({
              id: order.id,
              problem: `its total is ${order.total} but its payments hold ${authorized} authorized (not voided) and ${captured} captured`,
            });
        }
      },
    );
  }

  async function cartOrders(): Promise<Violation[]> {
    const several: Violation[] = (await orders.cartsWithSeveralOrders(cap)).map((c) => ({
      id: c.cart_id,
      problem: `has ${c.order_ids.length} orders: ${c.order_ids.join(", ")}`,
    }));
    return scanPages(
      (after, limit) => carts.completedCartsPage(after, limit),
      (id) => id,
      async (page, out) => {
        const ordered = await orders.cartIdsWithOrders(page);
        for (const id of page) if (!ordered.has(id)) out.push({ id, problem: "is completed but has no order" });
      },
      several,
    );
  }

  /**
   * Reads pages of `BATCH` rows, each after the last key of the one before, until `cap` violations
   * are found or the rows run out; `check` adds a page's violations to `out` (which may start non-empty).
   */
  async function scanPages<R>(
    read: (after: string, limit: number) => Promise<R[]>,
    key: (row: R) => string,
    check: (page: R[], out: Violation[]) => Promise<void>,
    out: Violation[] = [],
  ): Promise<Violation[]> {
    for (let after = ""; out.length < cap;) {
      const page = await read(after, BATCH);
      if (!page.length) break;
      after = key(page[page.length - 1]!);
      await check(page, out);
    }
    return out.slice(0, cap);
  }
}
