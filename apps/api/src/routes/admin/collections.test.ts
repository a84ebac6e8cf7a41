import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin collections", () => {
  it("creates with a generated handle, retrieves by id or handle, updates, lists and soft-deletes", async () => {
    const created = await t.admin.post("/admin/collections", { title: "Summer Sale", metadata: { a: 1 } });
    expect(created.statusCode).toBe(200);
    const collection = created.json().collection;
    expect(collection).toMatchObject({ title: "Summer Sale", handle: "summer-sale", metadata: { a: 1 } });
    expect(collection.id).toMatch(/^pcol_/);
    expect((await t.admin.post("/admin/collections", { title: "Summer Sale" })).json().collection.handle).toBe(
      "summer-sale-1",
    );
    expect((await t.admin.get("/admin/collections/summer-sale")).json().collection.id).toBe(collection.id);

    const updated = await t.admin.post(`/admin/collections/${collection.id}`, { title: "Winter", handle: "winter" });
    expect(updated.json().collection).toMatchObject({ title: "Winter", handle: "winter" });

    await t.admin.post("/admin/collections", { title: "Autumn" });
    expect((await t.admin.get("/admin/collections?q=wint")).json()).toMatchObject({
      count: 1,
      collections: [expect.objectContaining({ id: collection.id })],
    });
    expect((await t.admin.get("/admin/collections?handle[]=winter&handle[]=autumn")).json().count).toBe(2);
    const page = (await t.admin.get("/admin/collections?limit=1&offset=1&order=title&fields=title")).json();
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(Object.keys(page.collections[0]).sort()).toEqual(["id", "title"]);

    // A product in the collection is detached when the collection goes.
    const product = (
      await t.admin.post("/admin/products", {
        title: "In Winter",
        collection_id: collection.id,
        options: [{ title: "Size", values: ["S"] }],
      })
    ).json().product;
    expect((await t.admin.delete(`/admin/collections/${collection.id}`)).json()).toEqual({
      id: collection.id,
      object: "collection",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/collections/${collection.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/products/${product.id}`)).json().product).toMatchObject({
      collection_id: null,
      collection: null,
    });
    expect((await t.admin.post("/admin/collections", { title: "Again", handle: "winter" })).statusCode).toBe(200);
  });

  it("generates the handle when Medusa's form sends it blank; an update may not blank it", async () => {
    const res = await t.admin.post("/admin/collections", { title: "Autumn Picks", handle: "" });
    expect(res.statusCode).toBe(200);
    const collection = res.json().collection;
    expect(collection.handle).toBe("autumn-picks");
    const blanked = await t.admin.post(`/admin/collections/${collection.id}`, { handle: "" });
    expect(blanked.statusCode).toBe(400);
    expect((await t.admin.get(`/admin/collections/${collection.id}`)).json().collection.handle).toBe("autumn-picks");
  });

  it("rejects bad input and taken handles", async () => {
    const before = (await t.admin.get("/admin/collections")).json().count;
    for (const body of [
      {},
      { title: "" },
      { title: 1 },
      { title: "x", handle: "Bad Handle" },
      { title: "x", extra: true },
    ]) {
      const res = await t.admin.post("/admin/collections", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await t.admin.post("/admin/collections", { title: "Taken", handle: "taken" });
    const taken = await t.admin.post("/admin/collections", { title: "Other", handle: "taken" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().type).toBe("conflict");
    expect((await t.admin.get("/admin/collections")).json().count).toBe(before + 1);
    expect((await t.admin.post("/admin/collections/pcol_missing", { title: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/collections/pcol_missing")).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/admin/collections" })).statusCode).toBe(401);
  });
});
