import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@kasse/db";
import { useTestApp } from "../../testing";
import { createStockLocations } from "../../testing/locations";

const t = useTestApp();
let berlin: string;
let hamburg: string;
beforeAll(async () => {
  [berlin, hamburg] = await createStockLocations(t, "Berlin", "Hamburg");
});

/** An item stocked at Berlin (and optionally Hamburg). */
async function stockedItem(sku: string, berlinQty: number, hamburgQty?: number): Promise<string> {
  const location_levels = [
    { location_id: berlin, stocked_quantity: berlinQty },
    ...(hamburgQty === undefined ? [] : [{ location_id: hamburg, stocked_quantity: hamburgQty }]),
  ];
  return (await t.admin.post("/admin/inventory-items", { sku, location_levels })).json().inventory_item.id;
}
const levelAt = async (itemId: string, locationId: string) =>
  (await t.admin.get(`/admin/inventory-items/${itemId}`))
    .json()
    .inventory_item.location_levels.find((l: { location_id: string }) => l.location_id === locationId);

/** A reservation of `quantity` units of `inventory_item_id` at `location_id`, asked for through the admin API. */
const reserve = (inventory_item_id: string, location_id: string, quantity: number) =>
  t.admin.post("/admin/reservations", { inventory_item_id, location_id, quantity });

describe("admin reservations", () => {
  it("creates, lists with filters, updates and deletes, moving reserved_quantity with each change", async () => {
    const item = await stockedItem("RES-1", 10, 4);
    const created = await t.admin.post("/admin/reservations", {
      inventory_item_id: item,
      location_id: berlin,
      quantity: 3,
      line_item_id: "item_1",
      description: "hold",
      metadata: { k: "v" },
    });
    expect(created.statusCode).toBe(200);
    const reservation = created.json().reservation;
    expect(reservation).toMatchObject({
      inventory_item_id: item,
      location_id: berlin,
      quantity: 3,
      line_item_id: "item_1",
      description: "hold",
      created_by: "user_test_admin",
      metadata: { k: "v" },
    });
    expect(reservation.id).toMatch(/^resitem_/);
    expect(Object.keys(reservation).sort()).toEqual(
      [
        "id",
        "inventory_item_id",
        "location_id",
        "quantity",
        "line_item_id",
        "description",
        "created_by",
        "metadata",
        "created_at",
        "updated_at",
      ].sort(),
    );
    expect(await levelAt(item, berlin)).toMatchObject({
      stocked_quantity: 10,
      reserved_quantity: 3,
      available_quantity: 7,
    });
    const second = (await reserve(item, hamburg, 1)).json().reservation;

    const all = await t.admin.get(`/admin/reservations?inventory_item_id=${item}`);
    expect(all.json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect(
      (await t.admin.get(`/admin/reservations?location_id[]=${hamburg}`))
        .json()
        .reservations.map((r: { id: string }) => r.id),
    ).toEqual([second.id]);
    expect(
      (await t.admin.get("/admin/reservations?line_item_id=item_1"))
        .json()
        .reservations.map((r: { id: string }) => r.id),
    ).toEqual([reservation.id]);
    expect((await t.admin.get(`/admin/reservations/${reservation.id}`)).json().reservation.quantity).toBe(3);

    // More quantity is re-checked; less gives units back.
    expect(
      (await t.admin.post(`/admin/reservations/${reservation.id}`, { quantity: 10 })).json().reservation.quantity,
    ).toBe(10);
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 10, available_quantity: 0 });
    const tooMuch = await t.admin.post(`/admin/reservations/${reservation.id}`, { quantity: 11 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toMatch(/insufficient inventory/i);
    expect(
      (await t.admin.post(`/admin/reservations/${reservation.id}`, { quantity: 2, description: "less" })).json()
        .reservation,
    ).toMatchObject({ quantity: 2, description: "less" });
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 2, available_quantity: 8 });

    // Moving to another location checks the new one and frees the old one.
    const refusedMove = await t.admin.post(`/admin/reservations/${reservation.id}`, {
      location_id: hamburg,
      quantity: 4,
    });
    expect(refusedMove.statusCode).toBe(400);
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 2 });
    const moved = await t.admin.post(`/admin/reservations/${reservation.id}`, { location_id: hamburg, quantity: 3 });
    expect(moved.json().reservation).toMatchObject({ location_id: hamburg, quantity: 3 });
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 0, available_quantity: 10 });
    expect(await levelAt(item, hamburg)).toMatchObject({ reserved_quantity: 4, available_quantity: 0 });

    expect((await t.admin.delete(`/admin/reservations/${reservation.id}`)).json()).toEqual({
      id: reservation.id,
      object: "reservation",
      deleted: true,
    });
    expect(await levelAt(item, hamburg)).toMatchObject({ reserved_quantity: 1, available_quantity: 3 });
    expect((await t.admin.delete(`/admin/reservations/${reservation.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/reservations/${reservation.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/reservations?inventory_item_id=${item}`)).json().count).toBe(1);
  });

  it("refuses bad input and reserving more than available with 4xx, nothing changed", async () => {
    const item = await stockedItem("RES-BAD", 5);
    const cases: Array<[unknown, number]> = [
      [{ inventory_item_id: item, location_id: berlin }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: 0 }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: -2 }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: 1.5 }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: "1" }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: 1, extra: 1 }, 400],
      [{ inventory_item_id: item, location_id: berlin, quantity: 6 }, 400],
      [{ inventory_item_id: item, location_id: hamburg, quantity: 1 }, 400], // not stocked there
      [{ inventory_item_id: item, location_id: "sloc_missing", quantity: 1 }, 404],
      [{ inventory_item_id: "iitem_missing", location_id: berlin, quantity: 1 }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await t.admin.post("/admin/reservations", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().type).toBe(status === 404 ? "not_found" : "invalid_data");
    }
    const insufficient = await reserve(item, berlin, 6);
    expect(insufficient.json()).toMatchObject({ type: "invalid_data" });
    expect(insufficient.json().message).toMatch(/insufficient inventory/i);
    expect((await t.admin.get(`/admin/reservations?inventory_item_id=${item}`)).json().count).toBe(0);
    expect(await levelAt(item, berlin)).toMatchObject({
      stocked_quantity: 5,
      reserved_quantity: 0,
      available_quantity: 5,
    });

    const reservation = (await reserve(item, berlin, 2)).json().reservation;
    for (const body of [{ quantity: 0 }, { quantity: -1 }, { location_id: "" }, { inventory_item_id: item }]) {
      expect((await t.admin.post(`/admin/reservations/${reservation.id}`, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect(
      (await t.admin.post(`/admin/reservations/${reservation.id}`, { location_id: "sloc_missing" })).statusCode,
    ).toBe(404);
    expect((await t.admin.post("/admin/reservations/resitem_missing", { quantity: 1 })).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/reservations/${reservation.id}`)).json().reservation).toMatchObject({
      quantity: 2,
      location_id: berlin,
    });
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 2, available_quantity: 3 });
    expect((await t.admin.get("/admin/reservations?order=nope")).statusCode).toBe(400);
  });

  it("lets a backordered variant's item reserve beyond stock", async () => {
    const item = await stockedItem("RES-BACKORDER", 1);
    await queryRows(
      t.database.db,
      sql`insert into product (id, title, handle) values ('prod_bo', 'Backorder', 'backorder')`,
    );
    await queryRows(
      t.database.db,
      sql`insert into product_variant (id, product_id, title, allow_backorder) values ('variant_bo', 'prod_bo', 'Default', true)`,
    );
    const refused = await reserve(item, berlin, 3);
    expect(refused.statusCode).toBe(400);
    await t.app.modules.inventory.linkVariants([{ variant_id: "variant_bo", inventory_item_id: item }]);
    const allowed = await reserve(item, berlin, 3);
    expect(allowed.statusCode).toBe(200);
    expect(await levelAt(item, berlin)).toMatchObject({
      stocked_quantity: 1,
      reserved_quantity: 3,
      available_quantity: -2,
    });
    // Growing a backordered reservation follows the same rule.
    expect(
      (await t.admin.post(`/admin/reservations/${allowed.json().reservation.id}`, { quantity: 5 })).statusCode,
    ).toBe(200);
    expect(await levelAt(item, berlin)).toMatchObject({ reserved_quantity: 5, available_quantity: -4 });
  });

  it("requires an admin", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/reservations" })).statusCode).toBe(401);
    const customer = await t.customerHeaders("cus_1");
    expect(
      (await t.app.inject({ method: "POST", url: "/admin/reservations", headers: customer, payload: {} })).statusCode,
    ).toBe(403);
  });

  it("50 parallel reservations of 1 against stock 20: exactly 20 succeed, never below zero", async () => {
    const item = await stockedItem("RES-RACE", 20);
    let racing = true;
    const seen: number[] = [];
    // Samples the level while the requests race: no negative value may ever be visible.
    const sampler = (async () => {
      while (racing) {
        const [row] = await queryRows<{ available_quantity: number; reserved_quantity: number }>(
          t.database.db,
          sql`select available_quantity, reserved_quantity from inventory_level where inventory_item_id = ${item} and location_id = ${berlin}`,
        );
        seen.push(Number(row!.available_quantity));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.admin.post("/admin/reservations", {
          inventory_item_id: item,
          location_id: berlin,
          quantity: 1,
          line_item_id: `line_${i}`,
        }),
      ),
    );
    racing = false;
    await sampler;
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused)
      expect(r.json()).toMatchObject({
        type: "invalid_data",
        message: expect.stringMatching(/insufficient inventory/i),
      });
    expect(await levelAt(item, berlin)).toMatchObject({
      stocked_quantity: 20,
      reserved_quantity: 20,
      available_quantity: 0,
    });
    expect((await t.admin.get(`/admin/reservations?inventory_item_id=${item}`)).json().count).toBe(20);
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
  });
});
