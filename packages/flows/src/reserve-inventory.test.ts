import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errors, type KasseError } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow, type Engine } from "@kasse/workflows";
import { createInventoryService, type InventoryService } from "@kasse/modules/inventory";
import { createStockLocationService } from "@kasse/modules/stock-location";
import { reserveInventory, reserveInventoryWorkflow, type ReserveInventoryInput } from "./reserve-inventory";

let database: TestDatabase;
let engine: Engine;
let inventory: InventoryService;
let older: string;
let newer: string;
let elsewhere: string;
const CHANNEL = "sc_web";

beforeAll(async () => {
  database = await createTestDatabase({ poolSize: 20 });
  engine = createEngine({ db: database.db });
  inventory = createInventoryService(database.db);
  const locations = createStockLocationService(database.db);
  older = (await locations.create({ name: "Older" })).id;
  newer = (await locations.create({ name: "Newer" })).id;
  elsewhere = (await locations.create({ name: "Other channel" })).id;
  await locations.updateSalesChannels(older, { add: [CHANNEL] });
  await locations.updateSalesChannels(newer, { add: [CHANNEL] });
  await locations.updateSalesChannels(elsewhere, { add: ["sc_other"] });
});
afterAll(() => database.close());

/** A variant with its own inventory item stocked as given. */
async function variant(id: string, stock: Record<string, number>): Promise<string> {
  const [link] = await inventory.createItemsForVariants([{ variant_id: id, sku: id.toUpperCase(), title: id }]);
  const levels = Object.entries(stock).map(([location_id, stocked_quantity]) => ({ location_id, stocked_quantity }));
  if (levels.length) await inventory.createLevels(link!.inventory_item_id, levels);
  return link!.inventory_item_id;
}
const reserved = async (itemId: string, locationId: string) => (await inventory.retrieveLevel(itemId, locationId)).reserved_quantity;
const run = (input: ReserveInventoryInput) => engine.execute(reserveInventoryWorkflow, input);
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error("expected a failure"); }, (error: KasseError) => error);

/** Reserves, then fails at its last step: everything reserved must be compensated. */
const failingAfterReserve = workflow("test-reserve-then-fail", async (input: ReserveInventoryInput, ctx) => {
  await reserveInventory(ctx, input);
  await ctx.run(failingStep, { reason: "payment declined" });
});
const failingStep = step("test-always-fails", {
  invoke: async (input: { reason: string }): Promise<{ output: null }> => {
    throw errors.invalidData(input.reason);
  },
});

describe("reserve-inventory workflow", () => {
  it("serves the whole order from one location when one can, else each item where it can", async () => {
    const x = await variant("var_x", { [older]: 5, [newer]: 5 });
    const y = await variant("var_y", { [older]: 0, [newer]: 5 });
    const single = await run({ sales_channel_id: CHANNEL, items: [{ line_item_id: "l1", variant_id: "var_x", quantity: 2 }, { line_item_id: "l2", variant_id: "var_y", quantity: 1 }] });
    expect(single.map((r) => r.location_id)).toEqual([newer, newer]);
    expect(single.map((r) => [r.line_item_id, r.quantity])).toEqual([["l1", 2], ["l2", 1]]);
    expect(await reserved(x, newer)).toBe(2);

    const perItem = await run({
      sales_channel_id: CHANNEL,
      location_strategy: "per_item",
      items: [{ line_item_id: "l3", variant_id: "var_x", quantity: 2 }, { line_item_id: "l4", variant_id: "var_y", quantity: 1 }],
    });
    expect(perItem.map((r) => r.location_id)).toEqual([older, newer]);
    expect(await reserved(x, older)).toBe(2);
    expect(await reserved(y, newer)).toBe(2);
  });

  it("sums the lines of one variant before checking, and reserves nothing when an item cannot be served", async () => {
    const z = await variant("var_z", { [older]: 5, [newer]: 5, [elsewhere]: 100 });
    const w = await variant("var_w", { [older]: 9 });
    const error = await failure(
      run({
        sales_channel_id: CHANNEL,
        items: [
          { line_item_id: "l5", variant_id: "var_w", quantity: 1 },
          { line_item_id: "l6", variant_id: "var_z", quantity: 3 },
          { line_item_id: "l7", variant_id: "var_z", quantity: 3 },
        ],
      }),
    );
    expect(error.type).toBe("invalid_data");
    expect(error.message).toMatch(/insufficient inventory/i);
    for (const loc of [older, newer, elsewhere]) expect(await reserved(z, loc)).toBe(0);
    expect(await reserved(w, older)).toBe(0);
  });

  it("skips variants without managed inventory and lets backordered variants go beyond stock", async () => {
    const b = await variant("var_backorder", { [newer]: 1 });
    const result = await run({
      sales_channel_id: CHANNEL,
      items: [
        { line_item_id: "l8", variant_id: "var_unmanaged", quantity: 50, manage_inventory: false },
        { line_item_id: "l9", variant_id: "var_backorder", quantity: 4, allow_backorder: true },
      ],
    });
    expect(result).toEqual([expect.objectContaining({ line_item_id: "l9", location_id: newer, quantity: 4 })]);
    expect(await inventory.retrieveLevel(b, newer)).toMatchObject({ reserved_quantity: 4, available_quantity: -3 });
    expect((await failure(run({ sales_channel_id: "sc_nowhere", items: [{ line_item_id: "l10", variant_id: "var_backorder", quantity: 1 }] }))).type).toBe("invalid_data");
  });

  it("releases exactly what it reserved when a later step fails", async () => {
    const c = await variant("var_comp", { [older]: 3 });
    await inventory.reserve([{ inventory_item_id: c, location_id: older, quantity: 1, line_item_id: "someone_else" }]);
    const error = await failure(engine.execute(failingAfterReserve, { sales_channel_id: CHANNEL, items: [{ line_item_id: "l11", variant_id: "var_comp", quantity: 2 }] }));
    expect(error.message).toBe("payment declined");
    expect(await inventory.retrieveLevel(c, older)).toMatchObject({ reserved_quantity: 1, available_quantity: 2 });
    expect((await inventory.listReservations({ line_item_id: ["l11"] }, { limit: 10, offset: 0 })).count).toBe(0);
  });

  it.runIf(onPostgres())("racing orders fall back to the next location when the first runs dry: 30 parallel against 10 + 10", async () => {
    const item = await variant("var_two_locations", { [older]: 10, [newer]: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => run({ sales_channel_id: CHANNEL, items: [{ line_item_id: `two_${i}`, variant_id: "var_two_locations", quantity: 1 }] })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    expect(await inventory.retrieveLevel(item, older)).toMatchObject({ reserved_quantity: 10, available_quantity: 0 });
    expect(await inventory.retrieveLevel(item, newer)).toMatchObject({ reserved_quantity: 10, available_quantity: 0 });
  });

  it.runIf(onPostgres())("50 parallel workflows of 1 unit against stock 20: exactly 20 succeed; failing ones all compensate", async () => {
    const item = await variant("var_race", { [older]: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => run({ sales_channel_id: CHANNEL, items: [{ line_item_id: `race_${i}`, variant_id: "var_race", quantity: 1 }] })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    for (const r of results) if (r.status === "rejected") expect((r.reason as KasseError).message).toMatch(/insufficient inventory/i);
    expect(await inventory.retrieveLevel(item, older)).toMatchObject({ stocked_quantity: 20, reserved_quantity: 20, available_quantity: 0 });

    const other = await variant("var_race_fail", { [older]: 20 });
    const failed = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => engine.execute(failingAfterReserve, { sales_channel_id: CHANNEL, items: [{ line_item_id: `fail_${i}`, variant_id: "var_race_fail", quantity: 1 }] })),
    );
    expect(failed.every((r) => r.status === "rejected")).toBe(true);
    const reasons = failed.map((r) => ((r as PromiseRejectedResult).reason as KasseError).message);
    // Up to 20 got their unit and then failed at the last step; the rest found no stock. All undone.
    expect(reasons.filter((m) => m === "payment declined").length).toBeGreaterThanOrEqual(20);
    expect(await inventory.retrieveLevel(other, older)).toMatchObject({ stocked_quantity: 20, reserved_quantity: 0, available_quantity: 20 });
    expect((await inventory.listReservations({ inventory_item_id: [other] }, { limit: 10, offset: 0 })).count).toBe(0);
  });
});
