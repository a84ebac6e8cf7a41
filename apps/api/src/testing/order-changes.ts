import { beforeAll, expect } from "vitest";
import { sql } from "drizzle-orm";
import { checkInvariants } from "@kasse/operations";
import type { TestApp } from "./app";
import { createFixtureProduct } from "./catalog";
import { stockTestVariants } from "./orders";

/** What the order-change tests (edits, exchanges, claims) put in place once per file. */
export interface ChangeFixtures {
  /** A warehouse, linked to {@link ChangeFixtures.CHANNEL}, where everything below is stocked. */
  LOC: string;
  CHANNEL: string;
  /** The inventory items of the test order's variants (`variant_shirt`, `variant_mug`). */
  items: Record<string, string>;
  /** A cap (5.00, 10 in stock) to add to orders: its variant and inventory item. */
  cap: { variant: string; item: string };
  /** A shipping option priced 9.00. */
  OPTION: string;
}

/**
 * Test fixture: in a `beforeAll`, a warehouse (`name`) linked to a sales channel, the test order's
 * variants and a cap stocked there, and a shipping option; read the answer's fields inside tests.
 */
export function useChangeFixtures(t: TestApp, name: string): ChangeFixtures {
  const fixtures = {} as ChangeFixtures;
  beforeAll(async () => {
    fixtures.LOC = (await t.app.modules.stockLocation.create({ name })).id;
    fixtures.CHANNEL = (await t.app.modules.salesChannel.create({ name: `${name} channel` })).id;
    await t.app.modules.stockLocation.updateSalesChannels(fixtures.LOC, { add: [fixtures.CHANNEL] });
    fixtures.items = await stockTestVariants(t.app, [fixtures.LOC]);
    const product = await createFixtureProduct(
      t,
      {
        title: "Cap",
        status: "published",
        variants: [{ title: "One size", size: "One", prices: [{ currency_code: "eur", amount: 500 }], stock: 10 }],
      },
      fixtures.LOC,
    );
    const variant = product.variantIds[0]!;
    const links = await t.app.modules.inventory.listVariantInventoryItems([variant]);
    fixtures.cap = { variant, item: links.get(variant)![0]!.inventory_item_id };
    fixtures.OPTION = (
      await t.app.modules.fulfillment.createOption({ name: "Express", prices: [{ currency_code: "eur", amount: 900 }] })
    ).id;
  });
  return fixtures;
}

/** The names of the events recorded for order `orderId`, oldest first. */
export async function orderEventNames(t: TestApp, orderId: string): Promise<string[]> {
  const result = (await t.database.db.execute(
    sql`select name from event where data->>'order_id' = ${orderId} or data->>'id' = ${orderId} order by created_at, id`,
  )) as unknown as Array<{ name: string }> | { rows: Array<{ name: string }> };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.name);
}

/** What `kasse check` finds wrong with the order, its lines or their reservations. */
export async function orderViolations(t: TestApp, orderId: string): Promise<string[]> {
  const current = await t.app.modules.order.retrieve(orderId);
  const ids = new Set([orderId, ...current.items.flatMap((i) => [i.id, i.cart_line_item_id ?? i.id])]);
  return (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
    r.violations.filter((v) => ids.has(v.id)).map((v) => `${r.name}: ${v.id} ${v.problem}`),
  );
}

/** Asserts a 4xx `{type, message}` answer of `status`. */
export function expectRefused(res: { statusCode: number; json: () => unknown; body: string }, status: number): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
