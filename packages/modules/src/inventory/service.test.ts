import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type KasseError } from "@kasse/core";
import { queryRows } from "@kasse/db";
import { failure, onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createInventoryService } from "./service";

const database = useTestDatabase({ poolSize: 20 });
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const inventory = createInventoryService();

const LOC_A = "sloc_a";
const LOC_B = "sloc_b";
async function item(sku: string, levels: Record<string, number>) {
  return inventory.create({
    sku,
    location_levels: Object.entries(levels).map(([location_id, stocked_quantity]) => ({
      location_id,
      stocked_quantity,
    })),
  });
}
const level = (itemId: string, locationId: string) => inventory.retrieveLevel(itemId, locationId);

describe("inventory service", () => {
  it("sums lines of one item before checking: two lines cannot both pass against the same stock", async () => {
    const shirt = await item("SUM", { [LOC_A]: 3 });
    const error = await failure(
      inventory.reserve([
        { inventory_item_id: shirt.id, location_id: LOC_A, quantity: 2, line_item_id: "l1" },
        { inventory_item_id: shirt.id, location_id: LOC_A, quantity: 2, line_item_id: "l2" },
      ]),
    );
    expect(error.type).toBe("invalid_data");
    expect(error.message).toMatch(/insufficient inventory/i);
    expect(await level(shirt.id, LOC_A)).toMatchObject({ reserved_quantity: 0, available_quantity: 3 });
    expect((await inventory.listReservations({ inventory_item_id: [shirt.id] }, { limit: 10, offset: 0 })).count).toBe(
      0,
    );

    const made = await inventory.reserve([
      { inventory_item_id: shirt.id, location_id: LOC_A, quantity: 2, line_item_id: "l1" },
      { inventory_item_id: shirt.id, location_id: LOC_A, quantity: 1, line_item_id: "l2" },
    ]);
    expect(made.map((r) => r.quantity)).toEqual([2, 1]);
    expect(await level(shirt.id, LOC_A)).toMatchObject({ reserved_quantity: 3, available_quantity: 0 });
  });

  it("writes nothing when one of several reservations fails", async () => {
    const a = await item("ATOMIC-A", { [LOC_A]: 5 });
    const b = await item("ATOMIC-B", { [LOC_A]: 1 });
    await failure(
      inventory.reserve([
        { inventory_item_id: a.id, location_id: LOC_A, quantity: 5 },
        { inventory_item_id: b.id, location_id: LOC_A, quantity: 2 },
      ]),
    );
    expect(await level(a.id, LOC_A)).toMatchObject({ reserved_quantity: 0 });
    expect(await level(b.id, LOC_A)).toMatchObject({ reserved_quantity: 0 });
  });

  it("releases exactly once", async () => {
    const mug = await item("RELEASE", { [LOC_A]: 4 });
    const [r] = await inventory.reserve([
      { inventory_item_id: mug.id, location_id: LOC_A, quantity: 3, line_item_id: "line_rel" },
    ]);
    const [first, second] = await Promise.all([
      inventory.releaseReservations([r!.id]),
      inventory.releaseReservations([r!.id]),
    ]);
    expect(first!.length + second!.length).toBe(1);
    expect(await level(mug.id, LOC_A)).toMatchObject({ reserved_quantity: 0, available_quantity: 4 });
    await inventory.reserve([
      { inventory_item_id: mug.id, location_id: LOC_A, quantity: 1, line_item_id: "line_rel2" },
    ]);
    expect(await inventory.releaseLineItems(["line_rel2"])).toHaveLength(1);
    expect(await level(mug.id, LOC_A)).toMatchObject({ reserved_quantity: 0 });
  });

  it("consumes reservations on fulfillment, restores them exactly, and adjusts stock on return", async () => {
    const cup = await item("CONSUME", { [LOC_A]: 10 });
    const [whole, part] = await inventory.reserve([
      { inventory_item_id: cup.id, location_id: LOC_A, quantity: 2 },
      { inventory_item_id: cup.id, location_id: LOC_A, quantity: 5 },
    ]);
    const consumed = await inventory.consumeReservations([
      { reservation_id: whole!.id },
      { reservation_id: part!.id, quantity: 3 },
    ]);
    expect(consumed).toEqual([
      { reservation_id: whole!.id, inventory_item_id: cup.id, location_id: LOC_A, quantity: 2, deleted: true },
      { reservation_id: part!.id, inventory_item_id: cup.id, location_id: LOC_A, quantity: 3, deleted: false },
    ]);
    expect(await level(cup.id, LOC_A)).toMatchObject({
      stocked_quantity: 5,
      reserved_quantity: 2,
      available_quantity: 3,
    });
    expect((await inventory.retrieveReservation(part!.id)).quantity).toBe(2);
    expect((await failure(inventory.retrieveReservation(whole!.id))).type).toBe("not_found");
    expect((await failure(inventory.consumeReservations([{ reservation_id: part!.id, quantity: 3 }]))).type).toBe(
      "invalid_data",
    );

    await inventory.restoreConsumed(consumed);
    expect(await level(cup.id, LOC_A)).toMatchObject({
      stocked_quantity: 10,
      reserved_quantity: 7,
      available_quantity: 3,
    });
    expect((await inventory.retrieveReservation(whole!.id)).quantity).toBe(2);
    expect((await inventory.retrieveReservation(part!.id)).quantity).toBe(5);

    await inventory.adjustStock([{ inventory_item_id: cup.id, location_id: LOC_A, adjustment: 4 }]);
    expect(await level(cup.id, LOC_A)).toMatchObject({ stocked_quantity: 14, available_quantity: 7 });
    // A decrease may not oversell what is reserved, nor take stock below zero.
    expect(
      (await failure(inventory.adjustStock([{ inventory_item_id: cup.id, location_id: LOC_A, adjustment: -8 }]))).type,
    ).toBe("invalid_data");
    await inventory.adjustStock([{ inventory_item_id: cup.id, location_id: LOC_A, adjustment: -8 }], {
      allowBelowReserved: true,
    });
    expect(await level(cup.id, LOC_A)).toMatchObject({
      stocked_quantity: 6,
      reserved_quantity: 7,
      available_quantity: -1,
    });
    expect(
      (
        await failure(
          inventory.adjustStock([{ inventory_item_id: cup.id, location_id: LOC_A, adjustment: -7 }], {
            allowBelowReserved: true,
          }),
        )
      ).type,
    ).toBe("invalid_data");
    expect(
      (await failure(inventory.adjustStock([{ inventory_item_id: cup.id, location_id: LOC_B, adjustment: 1 }]))).type,
    ).toBe("not_found");
  });

  it("enforces non-negative quantities in the database itself", async () => {
    const raw = await item("CHECKS", { [LOC_A]: 1 });
    await expect(
      queryRows(
        database.db,
        sql`update inventory_level set reserved_quantity = -1 where inventory_item_id = ${raw.id}`,
      ),
    ).rejects.toThrow();
    await expect(
      queryRows(database.db, sql`update inventory_level set stocked_quantity = -1 where inventory_item_id = ${raw.id}`),
    ).rejects.toThrow();
    await expect(
      queryRows(
        database.db,
        sql`update inventory_level set available_quantity = 5 where inventory_item_id = ${raw.id}`,
      ),
    ).rejects.toThrow();
    expect(await level(raw.id, LOC_A)).toMatchObject({
      stocked_quantity: 1,
      reserved_quantity: 0,
      available_quantity: 1,
    });
  });

  it("creates, lists and unlinks variant inventory items, and computes sellable quantities per page", async () => {
    const links = await inventory.createItemsForVariants([
      { variant_id: "variant_s", sku: "TEE-S", title: "S" },
      { variant_id: "variant_m", sku: null, title: "M" },
    ]);
    expect(links.map((l) => l.variant_id)).toEqual(["variant_s", "variant_m"]);
    const small = await inventory.retrieve(links[0]!.inventory_item_id);
    expect(small).toMatchObject({ sku: "TEE-S", title: "S" });
    const mapped = await inventory.listVariantInventoryItems(["variant_s", "variant_m", "variant_none"]);
    expect(mapped.get("variant_s")).toEqual([{ inventory_item_id: small.id, required_quantity: 1 }]);
    expect(mapped.has("variant_none")).toBe(false);
    expect(
      (await failure(inventory.createItemsForVariants([{ variant_id: "variant_dup", sku: "TEE-S", title: "dup" }])))
        .type,
    ).toBe("conflict");

    // A bundle: two of the small shirt plus one of a box.
    const box = await item("BOX", { [LOC_A]: 3, [LOC_B]: 10 });
    await inventory.linkVariants([
      { variant_id: "variant_bundle", inventory_item_id: small.id, required_quantity: 2 },
      { variant_id: "variant_bundle", inventory_item_id: box.id },
    ]);
    await inventory.createLevels(small.id, [
      { location_id: LOC_A, stocked_quantity: 5 },
      { location_id: LOC_B, stocked_quantity: 4 },
    ]);
    await inventory.reserve([{ inventory_item_id: small.id, location_id: LOC_A, quantity: 1 }]);

    const both = await inventory.availableQuantities(
      ["variant_s", "variant_m", "variant_bundle", "variant_none"],
      [LOC_A, LOC_B],
    );
    expect(both.get("variant_s")).toBe(8); // (5 - 1) + 4
    expect(both.get("variant_m")).toBe(0); // no levels anywhere
    expect(both.get("variant_bundle")).toBe(4); // min(floor(8 / 2), 3 + 10)
    expect(both.has("variant_none")).toBe(false);
    const onlyA = await inventory.availableQuantities(["variant_s", "variant_bundle"], [LOC_A]);
    expect(onlyA.get("variant_s")).toBe(4);
    expect(onlyA.get("variant_bundle")).toBe(2); // min(floor(4 / 2), 3)
    expect((await inventory.availableQuantities(["variant_s"], [])).get("variant_s")).toBe(0);

    const removed = await inventory.unlinkVariants(["variant_s"]);
    expect(removed).toEqual([{ variant_id: "variant_s", inventory_item_id: small.id, required_quantity: 1 }]);
    expect((await inventory.listVariantInventoryItems(["variant_s"])).has("variant_s")).toBe(false);
    expect((await inventory.retrieve(small.id)).id).toBe(small.id); // the item stays
  });

  it.runIf(onPostgres())("50 parallel reservations against stock 20 on PostgreSQL: exactly 20 succeed", async () => {
    const racer = await item("RACE-SERVICE", { [LOC_A]: 20 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        inventory.reserve([{ inventory_item_id: racer.id, location_id: LOC_A, quantity: 1 }]),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(30);
    for (const r of rejected) expect((r.reason as KasseError).type).toBe("invalid_data");
    expect(await level(racer.id, LOC_A)).toMatchObject({
      stocked_quantity: 20,
      reserved_quantity: 20,
      available_quantity: 0,
    });
    const [sum] = await queryRows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(quantity), 0) as total from reservation_item where inventory_item_id = ${racer.id} and deleted_at is null`,
    );
    expect(Number(sum!.total)).toBe(20);
  });
});
