import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createStockLocations } from "../../testing/locations";

const t = useTestApp();
let berlin: string;
let hamburg: string;
beforeAll(async () => {
  [berlin, hamburg] = await createStockLocations(t, "Berlin", "Hamburg");
});

/** A new item of `sku` with `stocked_quantity` units at Berlin. */
const stockedInBerlin = async (sku: string, stocked_quantity: number) => {
  const res = await t.admin.post("/admin/inventory-items", {
    sku,
    location_levels: [{ location_id: berlin, stocked_quantity }],
  });
  return res.json().inventory_item;
};
const levelsOf = async (itemId: string) =>
  Object.fromEntries(
    (await t.admin.get(`/admin/inventory-items/${itemId}`))
      .json()
      .inventory_item.location_levels.map((l: { location_id: string; stocked_quantity: number }) => [
        l.location_id,
        l.stocked_quantity,
      ]),
  );

describe("admin inventory items", () => {
  it("creates, retrieves, updates, lists (q, sku, location_id, fields, paging) and deletes", async () => {
    const created = await t.admin.post("/admin/inventory-items", {
      sku: "SHIRT-S",
      title: "Shirt S",
      origin_country: "DE",
      weight: 200,
      hs_code: "6109",
    });
    expect(created.statusCode).toBe(200);
    const item = created.json().inventory_item;
    expect(item).toMatchObject({
      sku: "SHIRT-S",
      title: "Shirt S",
      origin_country: "de",
      weight: 200,
      requires_shipping: true,
      location_levels: [],
      stocked_quantity: 0,
      reserved_quantity: 0,
    });
    expect(item.id).toMatch(/^iitem_/);
    const other = (
      await t.admin.post("/admin/inventory-items", {
        sku: "MUG",
        title: "Mug",
        description: "A shirt-coloured mug",
        location_levels: [{ location_id: hamburg, stocked_quantity: 4 }],
      })
    ).json().inventory_item;
    expect(other.location_levels).toHaveLength(1);
    expect(other.location_levels[0]).toMatchObject({
      location_id: hamburg,
      stocked_quantity: 4,
      reserved_quantity: 0,
      incoming_quantity: 0,
      available_quantity: 4,
    });

    const updated = await t.admin.post(`/admin/inventory-items/${item.id}`, {
      title: "Shirt small",
      requires_shipping: false,
      metadata: { a: 1 },
    });
    expect(updated.json().inventory_item).toMatchObject({
      title: "Shirt small",
      requires_shipping: false,
      metadata: { a: 1 },
      sku: "SHIRT-S",
    });
    expect((await t.admin.get(`/admin/inventory-items/${item.id}`)).json().inventory_item.title).toBe("Shirt small");

    expect((await t.admin.get("/admin/inventory-items?q=shirt")).json().count).toBe(2); // title and description
    const bySku = await t.admin.get("/admin/inventory-items?sku=SHIRT-S");
    expect(bySku.json().inventory_items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    expect((await t.admin.get("/admin/inventory-items?sku=shirt-s")).json().count).toBe(0); // exact
    expect(
      (await t.admin.get(`/admin/inventory-items?location_id[]=${hamburg}`))
        .json()
        .inventory_items.map((i: { id: string }) => i.id),
    ).toEqual([other.id]);
    expect((await t.admin.get(`/admin/inventory-items?location_levels[location_id]=${hamburg}`)).json().count).toBe(1);
    expect((await t.admin.get(`/admin/inventory-items?location_id=${berlin}`)).json().count).toBe(0);
    const page = await t.admin.get("/admin/inventory-items?limit=1&offset=1&order=sku&fields=sku");
    expect(page.json()).toMatchObject({
      count: 2,
      limit: 1,
      offset: 1,
      inventory_items: [{ id: item.id, sku: "SHIRT-S" }],
    });
    expect(Object.keys(page.json().inventory_items[0]).sort()).toEqual(["id", "sku"]);

    expect((await t.admin.delete(`/admin/inventory-items/${item.id}`)).json()).toEqual({
      id: item.id,
      object: "inventory-item",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/inventory-items/${item.id}`)).statusCode).toBe(404);
    // The sku is free again once its item is deleted.
    expect((await t.admin.post("/admin/inventory-items", { sku: "SHIRT-S" })).statusCode).toBe(200);
    const duplicate = await t.admin.post("/admin/inventory-items", { sku: "SHIRT-S" });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().type).toBe("conflict");
  });

  it("manages location levels: create (default 0), update, list in both shapes, delete", async () => {
    const item = (await t.admin.post("/admin/inventory-items", { sku: "LEVELS" })).json().inventory_item;
    const added = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, { location_id: berlin });
    expect(added.statusCode).toBe(200);
    expect(added.json().inventory_item.location_levels[0]).toMatchObject({
      location_id: berlin,
      stocked_quantity: 0,
      available_quantity: 0,
      inventory_item_id: item.id,
    });
    await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, {
      location_id: hamburg,
      stocked_quantity: 7,
    });

    const changed = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/${berlin}`, {
      stocked_quantity: 12,
      incoming_quantity: 3,
    });
    expect(changed.statusCode).toBe(200);
    const levels = changed.json().inventory_item.location_levels;
    expect(levels.find((l: { location_id: string }) => l.location_id === berlin)).toMatchObject({
      stocked_quantity: 12,
      incoming_quantity: 3,
      available_quantity: 12,
    });
    expect(changed.json().inventory_item).toMatchObject({ stocked_quantity: 19, reserved_quantity: 0 });

    const listed = await t.admin.get(`/admin/inventory-items/${item.id}/location-levels`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ inventory_item: { id: item.id }, count: 2, offset: 0, limit: 15 });
    expect(listed.json().inventory_item.location_levels).toHaveLength(2);
    expect(listed.json().inventory_levels).toEqual(listed.json().inventory_item.location_levels);
    expect(
      (await t.admin.get(`/admin/inventory-items/${item.id}/location-levels?location_id=${hamburg}`)).json().count,
    ).toBe(1);
    // The inventory page's request: each level with its location's name.
    const named = (
      await t.admin.get(
        `/admin/inventory-items/${item.id}/location-levels?limit=20&offset=0&fields=%2Bstock_locations.id,%2Bstock_locations.name`,
      )
    ).json();
    expect(
      Object.fromEntries(
        named.inventory_levels.map((l: { location_id: string; stock_locations: unknown }) => [
          l.location_id,
          l.stock_locations,
        ]),
      ),
    ).toEqual({
      [berlin]: [{ id: berlin, name: "Berlin" }],
      [hamburg]: [{ id: hamburg, name: "Hamburg" }],
    });
    expect(listed.json().inventory_levels[0]).not.toHaveProperty("stock_locations");

    const removed = await t.admin.delete(`/admin/inventory-items/${item.id}/location-levels/${hamburg}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ object: "inventory-level", deleted: true, parent: { id: item.id } });
    expect(removed.json().parent.location_levels).toHaveLength(1);
    expect((await t.admin.delete(`/admin/inventory-items/${item.id}/location-levels/${hamburg}`)).statusCode).toBe(404);
    // A deleted level can be created again.
    expect(
      (
        await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, {
          location_id: hamburg,
          stocked_quantity: 1,
        })
      ).statusCode,
    ).toBe(200);
  });

  it("refuses to delete a level or an item holding reservations, and stock below what is reserved", async () => {
    const item = await stockedInBerlin("HELD", 5);
    const reservation = (
      await t.admin.post("/admin/reservations", { inventory_item_id: item.id, location_id: berlin, quantity: 3 })
    ).json().reservation;

    const refused = await t.admin.delete(`/admin/inventory-items/${item.id}/location-levels/${berlin}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ type: "invalid_data" });
    expect(refused.json().message).toMatch(/reserved/);
    const itemRefused = await t.admin.delete(`/admin/inventory-items/${item.id}`);
    expect(itemRefused.statusCode).toBe(400);
    expect(itemRefused.json().type).toBe("invalid_data");

    const below = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/${berlin}`, {
      stocked_quantity: 2,
    });
    expect(below.statusCode).toBe(400);
    expect(below.json().type).toBe("invalid_data");
    const level = (await t.admin.get(`/admin/inventory-items/${item.id}`)).json().inventory_item.location_levels[0];
    expect(level).toMatchObject({ stocked_quantity: 5, reserved_quantity: 3, available_quantity: 2 });
    expect(
      (
        await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/${berlin}`, { stocked_quantity: 3 })
      ).json().inventory_item.location_levels[0].available_quantity,
    ).toBe(0);

    await t.admin.delete(`/admin/reservations/${reservation.id}`);
    expect((await t.admin.delete(`/admin/inventory-items/${item.id}/location-levels/${berlin}`)).statusCode).toBe(200);
    expect((await t.admin.delete(`/admin/inventory-items/${item.id}`)).statusCode).toBe(200);
  });

  it("rejects bad input with 4xx and nothing written", async () => {
    const before = (await t.admin.get("/admin/inventory-items")).json().count;
    for (const body of [
      { sku: 5 },
      { unknown: true },
      { origin_country: "DEU" },
      { weight: -1 },
      { weight: "200" },
      { requires_shipping: "yes" },
      { location_levels: [{ location_id: berlin, stocked_quantity: -1 }] },
      { location_levels: [{ stocked_quantity: 1 }] },
      { location_levels: [{ location_id: berlin, stocked_quantity: 1.5 }] },
    ]) {
      const res = await t.admin.post("/admin/inventory-items", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const unknownLocation = await t.admin.post("/admin/inventory-items", {
      sku: "NOPE",
      location_levels: [{ location_id: "sloc_missing" }],
    });
    expect(unknownLocation.statusCode).toBe(404);
    expect((await t.admin.get("/admin/inventory-items")).json().count).toBe(before);

    const item = (await t.admin.post("/admin/inventory-items", { sku: "BAD-LEVELS" })).json().inventory_item;
    for (const body of [
      {},
      { location_id: berlin, stocked_quantity: -3 },
      { location_id: berlin, stocked_quantity: "3" },
      { location_id: berlin, extra: 1 },
    ]) {
      const res = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(
      (await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, { location_id: "sloc_missing" }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.admin.post("/admin/inventory-items/iitem_missing/location-levels", { location_id: berlin })).statusCode,
    ).toBe(404);
    expect((await t.admin.get(`/admin/inventory-items/${item.id}`)).json().inventory_item.location_levels).toEqual([]);

    await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, {
      location_id: berlin,
      stocked_quantity: 2,
    });
    const twice = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels`, {
      location_id: berlin,
      stocked_quantity: 9,
    });
    expect(twice.statusCode).toBe(409);
    for (const body of [
      { stocked_quantity: -1 },
      { incoming_quantity: -1 },
      { stocked_quantity: 1, location_id: hamburg },
    ]) {
      expect((await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/${berlin}`, body)).statusCode).toBe(
        400,
      );
    }
    expect(
      (await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/${hamburg}`, { stocked_quantity: 1 }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.admin.get(`/admin/inventory-items/${item.id}`)).json().inventory_item.location_levels[0],
    ).toMatchObject({ stocked_quantity: 2, incoming_quantity: 0 });

    expect((await t.admin.post("/admin/inventory-items/iitem_missing", { title: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/inventory-items/iitem_missing")).json().type).toBe("not_found");
    expect((await t.admin.get("/admin/inventory-items?limit=-1")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/inventory-items?nope=1")).statusCode).toBe(400);
  });

  it("batch-manages an item's levels in one transaction (Medusa's location-levels/batch)", async () => {
    const item = await stockedInBerlin("BATCH", 2);
    const res = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
      create: [{ location_id: hamburg, stocked_quantity: 6 }],
      update: [{ location_id: berlin, stocked_quantity: 4, incoming_quantity: 1 }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toEqual([
      expect.objectContaining({ location_id: hamburg, stocked_quantity: 6, available_quantity: 6 }),
    ]);
    expect(res.json().updated).toEqual([
      expect.objectContaining({ location_id: berlin, stocked_quantity: 4, incoming_quantity: 1 }),
    ]);
    expect(res.json().deleted).toEqual([]);

    // One bad part (an unknown level) and nothing of the batch is applied.
    const refused = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
      update: [{ location_id: berlin, stocked_quantity: 9 }],
      delete: [hamburg, "sloc_missing"],
    });
    expect(refused.statusCode).toBe(404);
    expect(await levelsOf(item.id)).toEqual({ [berlin]: 4, [hamburg]: 6 });
    expect(
      (
        await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
          create: [{ location_id: "sloc_missing" }],
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
          update: [{ location_id: berlin, stocked_quantity: -1 }],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, { delete: "x" })).statusCode,
    ).toBe(400);

    await t.admin.post("/admin/reservations", { inventory_item_id: item.id, location_id: hamburg, quantity: 1 });
    const held = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
      delete: [berlin, hamburg],
    });
    expect(held.statusCode).toBe(400);
    expect(await levelsOf(item.id)).toEqual({ [berlin]: 4, [hamburg]: 6 });

    const levelId = (await t.admin.get(`/admin/inventory-items/${item.id}`))
      .json()
      .inventory_item.location_levels.find((l: { location_id: string }) => l.location_id === berlin).id;
    const removed = await t.admin.post(`/admin/inventory-items/${item.id}/location-levels/batch`, {
      delete: [levelId],
    });
    expect(removed.json().deleted).toEqual([levelId]);
    expect(await levelsOf(item.id)).toEqual({ [hamburg]: 6 });
  });

  it("requires an admin", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/inventory-items" })).statusCode).toBe(401);
    const customer = await t.customerHeaders("cus_1");
    expect(
      (await t.app.inject({ method: "POST", url: "/admin/inventory-items", headers: customer, payload: {} }))
        .statusCode,
    ).toBe(403);
  });
});
