import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errors, type KasseError } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow, type Engine } from "@kasse/workflows";
import { createInventoryService, type InventoryService } from "@kasse/modules/inventory";
import { adjustStock, adjustStockWorkflow, type AdjustStockInput } from "./adjust-stock";

let database: TestDatabase;
let engine: Engine;
let inventory: InventoryService;
const LOC = "sloc_main";

beforeAll(async () => {
  database = await createTestDatabase();
  engine = createEngine({ db: database.db });
  inventory = createInventoryService(database.db);
});
afterAll(() => database.close());

async function variant(id: string, stocked: number): Promise<string> {
  const [link] = await inventory.createItemsForVariants([{ variant_id: id, sku: id.toUpperCase(), title: id }]);
  await inventory.createLevels(link!.inventory_item_id, [{ location_id: LOC, stocked_quantity: stocked }]);
  return link!.inventory_item_id;
}
const level = (itemId: string) => inventory.retrieveLevel(itemId, LOC);
const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error("expected a failure"); }, (error: KasseError) => error);
const failingStep = step("test-fails-after", {
  invoke: async (): Promise<{ output: null }> => {
    throw errors.invalidData("later step failed");
  },
});
const adjustThenFail = workflow("test-adjust-then-fail", async (input: AdjustStockInput, ctx) => {
  await adjustStock(ctx, input);
  await ctx.run(failingStep, {});
});

describe("adjust-stock workflow", () => {
  it("fulfillment consumes the line's reservations and takes the units out of stock", async () => {
    const item = await variant("var_ful", 10);
    await inventory.reserve([{ inventory_item_id: item, location_id: LOC, quantity: 4, line_item_id: "line_ful" }]);
    const result = await engine.execute(adjustStockWorkflow, { fulfill: [{ line_item_id: "line_ful", variant_id: "var_ful", quantity: 3 }] });
    expect(result.consumed).toEqual([expect.objectContaining({ inventory_item_id: item, quantity: 3, deleted: false })]);
    expect(await level(item)).toMatchObject({ stocked_quantity: 7, reserved_quantity: 1, available_quantity: 6 });
    await engine.execute(adjustStockWorkflow, { fulfill: [{ line_item_id: "line_ful", variant_id: "var_ful", quantity: 1 }] });
    expect(await level(item)).toMatchObject({ stocked_quantity: 6, reserved_quantity: 0, available_quantity: 6 });
    expect((await inventory.listReservations({ line_item_id: ["line_ful"] }, { limit: 5, offset: 0 })).count).toBe(0);

    const short = await failure(engine.execute(adjustStockWorkflow, { fulfill: [{ line_item_id: "line_ful", variant_id: "var_ful", quantity: 1 }] }));
    expect(short.type).toBe("invalid_data");
    expect(await level(item)).toMatchObject({ stocked_quantity: 6, reserved_quantity: 0 });
  });

  it("a bundle consumes required_quantity of each item per unit", async () => {
    const [link] = await inventory.createItemsForVariants([{ variant_id: "var_bundle", sku: "BUNDLE", title: "bundle" }]);
    const extra = await variant("var_part", 10);
    await inventory.linkVariants([{ variant_id: "var_bundle", inventory_item_id: extra, required_quantity: 2 }]);
    await inventory.createLevels(link!.inventory_item_id, [{ location_id: LOC, stocked_quantity: 5 }]);
    await inventory.reserveForLines({ lines: [{ line_item_id: "line_bundle", variant_id: "var_bundle", quantity: 2 }], location_ids: [LOC] });
    expect(await level(extra)).toMatchObject({ reserved_quantity: 4 });
    await engine.execute(adjustStockWorkflow, { fulfill: [{ line_item_id: "line_bundle", variant_id: "var_bundle", quantity: 1 }] });
    expect(await level(link!.inventory_item_id)).toMatchObject({ stocked_quantity: 4, reserved_quantity: 1 });
    expect(await level(extra)).toMatchObject({ stocked_quantity: 8, reserved_quantity: 2 });
  });

  it("a return receipt puts units back in stock", async () => {
    const item = await variant("var_ret", 2);
    const result = await engine.execute(adjustStockWorkflow, { receive: [{ variant_id: "var_ret", location_id: LOC, quantity: 3 }] });
    expect(result.received).toEqual([{ inventory_item_id: item, location_id: LOC, adjustment: 3 }]);
    expect(await level(item)).toMatchObject({ stocked_quantity: 5, available_quantity: 5 });
    const bad = await failure(engine.execute(adjustStockWorkflow, { adjustments: [{ inventory_item_id: item, location_id: LOC, adjustment: -6 }] }));
    expect(bad.type).toBe("invalid_data");
    expect(await level(item)).toMatchObject({ stocked_quantity: 5 });
  });

  it("undoes fulfillment, receipt and adjustments exactly when a later step fails", async () => {
    const item = await variant("var_undo", 10);
    await inventory.reserve([{ inventory_item_id: item, location_id: LOC, quantity: 3, line_item_id: "line_undo" }]);
    const error = await failure(
      engine.execute(adjustThenFail, {
        fulfill: [{ line_item_id: "line_undo", variant_id: "var_undo", quantity: 3 }],
        receive: [{ variant_id: "var_undo", location_id: LOC, quantity: 2 }],
        adjustments: [{ inventory_item_id: item, location_id: LOC, adjustment: -1 }],
      }),
    );
    expect(error.message).toBe("later step failed");
    expect(await level(item)).toMatchObject({ stocked_quantity: 10, reserved_quantity: 3, available_quantity: 7 });
    const [r] = (await inventory.listReservations({ line_item_id: ["line_undo"] }, { limit: 5, offset: 0 })).items;
    expect(r).toMatchObject({ quantity: 3 });
  });
});
