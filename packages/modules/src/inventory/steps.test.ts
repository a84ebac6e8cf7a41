import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errors } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow, type Engine } from "@kasse/workflows";
import { createInventoryService, type InventoryService } from "./service";
import { createVariantInventoryItemsStep, reserveInventoryStep, unlinkVariantInventoryStep } from "./steps";

let database: TestDatabase;
let engine: Engine;
let inventory: InventoryService;
beforeAll(async () => {
  database = await createTestDatabase();
  engine = createEngine({ db: database.db });
  inventory = createInventoryService(database.db);
});
afterAll(() => database.close());

const fail = step("test-inventory-fails", {
  invoke: async (): Promise<{ output: null }> => {
    throw errors.invalidData("later step failed");
  },
});
const createThenFail = workflow("test-create-variant-items-then-fail", async (input: { variant_id: string; sku: string }, ctx) => {
  await ctx.run(createVariantInventoryItemsStep, [{ variant_id: input.variant_id, sku: input.sku, title: "T" }]);
  await ctx.run(fail, {});
});
const unlinkThenFail = workflow("test-unlink-variants-then-fail", async (input: { variant_id: string }, ctx) => {
  await ctx.run(unlinkVariantInventoryStep, [input.variant_id]);
  await ctx.run(fail, {});
});
const reserveThenFail = workflow("test-reserve-items-then-fail", async (input: { item: string }, ctx) => {
  await ctx.run(reserveInventoryStep, [{ inventory_item_id: input.item, location_id: "sloc_x", quantity: 2 }]);
  await ctx.run(fail, {});
});

describe("inventory steps", () => {
  it("undo variant item creation: the items go and their sku is free again", async () => {
    await expect(engine.execute(createThenFail, { variant_id: "variant_1", sku: "STEP-SKU" })).rejects.toThrow("later step failed");
    expect((await inventory.listVariantInventoryItems(["variant_1"])).size).toBe(0);
    expect((await inventory.list({ sku: ["STEP-SKU"] }, { limit: 5, offset: 0 })).count).toBe(0);
    expect(await inventory.createItemsForVariants([{ variant_id: "variant_1", sku: "STEP-SKU", title: "T" }])).toHaveLength(1);
  });

  it("undo unlinking: the links come back", async () => {
    const [link] = await inventory.createItemsForVariants([{ variant_id: "variant_2", sku: null, title: "T" }]);
    await expect(engine.execute(unlinkThenFail, { variant_id: "variant_2" })).rejects.toThrow("later step failed");
    expect((await inventory.listVariantInventoryItems(["variant_2"])).get("variant_2")).toEqual([{ inventory_item_id: link!.inventory_item_id, required_quantity: 1 }]);
  });

  it("undo explicit reservations", async () => {
    const item = await inventory.create({ location_levels: [{ location_id: "sloc_x", stocked_quantity: 2 }] });
    await expect(engine.execute(reserveThenFail, { item: item.id })).rejects.toThrow("later step failed");
    expect(await inventory.retrieveLevel(item.id, "sloc_x")).toMatchObject({ reserved_quantity: 0, available_quantity: 2 });
  });
});
