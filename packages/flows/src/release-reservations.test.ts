import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errors, type KasseError } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow, type Engine } from "@kasse/workflows";
import { createInventoryService, type InventoryService } from "@kasse/modules/inventory";
import { releaseReservations, releaseReservationsWorkflow, type ReleaseReservationsInput } from "./release-reservations";

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
const failingStep = step("test-fails-after-release", {
  invoke: async (): Promise<{ output: null }> => {
    throw errors.invalidData("later step failed");
  },
});
const releaseThenFail = workflow("test-release-then-fail", async (input: ReleaseReservationsInput, ctx) => {
  await releaseReservations(ctx, input);
  await ctx.run(failingStep, {});
});

describe("release-reservations workflow", () => {
  it("releases by id and by line item, once", async () => {
    const item = await variant("var_rel", 10);
    const [a, b] = await inventory.reserve([
      { inventory_item_id: item, location_id: LOC, quantity: 2, line_item_id: "line_a" },
      { inventory_item_id: item, location_id: LOC, quantity: 3, line_item_id: "line_b" },
    ]);
    const released = await engine.execute(releaseReservationsWorkflow, { reservation_ids: [a!.id], line_item_ids: ["line_b", "line_a"] });
    expect(released.map((r) => r.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(await level(item)).toMatchObject({ reserved_quantity: 0, available_quantity: 10 });
    expect(await engine.execute(releaseReservationsWorkflow, { reservation_ids: [a!.id] })).toEqual([]);
  });

  it("brings back exactly what it released when a later step fails", async () => {
    const item = await variant("var_rel_undo", 10);
    const [a] = await inventory.reserve([{ inventory_item_id: item, location_id: LOC, quantity: 4, line_item_id: "line_c" }]);
    await failure(engine.execute(releaseThenFail, { line_item_ids: ["line_c"] }));
    expect(await level(item)).toMatchObject({ reserved_quantity: 4, available_quantity: 6 });
    expect((await inventory.retrieveReservation(a!.id)).quantity).toBe(4);
  });
});
