import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

const create = async (body: Record<string, unknown>) => {
  const res = await t.admin.post("/admin/product-categories", body);
  expect(res.statusCode).toBe(200);
  return res.json().product_category as { id: string; handle: string; rank: number; parent_category_id: string | null };
};

describe("admin product categories", () => {
  it("builds a ranked tree with children, descendants and top-level filtering", async () => {
    const men = await create({ name: "Men", is_active: true });
    const shirts = await create({ name: "Shirts", parent_category_id: men.id, is_active: true });
    const tees = await create({ name: "T-Shirts", parent_category_id: shirts.id });
    const shoes = await create({ name: "Shoes", parent_category_id: men.id, rank: 0 });
    expect(men).toMatchObject({ handle: "men", rank: 0, parent_category_id: null });
    expect(tees.handle).toBe("t-shirts");

    const direct = (await t.admin.get(`/admin/product-categories/${men.id}`)).json().product_category;
    expect(direct.category_children.map((c: { name: string; rank: number }) => [c.name, c.rank])).toEqual([
      ["Shoes", 0],
      ["Shirts", 1],
    ]);
    expect(direct.category_children[1].category_children).toEqual([]);
    const deep = (await t.admin.get(`/admin/product-categories/${men.id}?include_descendants_tree=true`)).json()
      .product_category;
    expect(deep.category_children[1].category_children.map((c: { id: string }) => c.id)).toEqual([tees.id]);
    expect(
      (await t.admin.get(`/admin/product-categories/${tees.id}`)).json().product_category.parent_category,
    ).toMatchObject({ id: shirts.id });
    const ancestry = async (id: string) =>
      (await t.admin.get(`/admin/product-categories/${id}?include_ancestors_tree=true`)).json().product_category
        .parent_category;
    expect(await ancestry(tees.id)).toMatchObject({
      id: shirts.id,
      parent_category: { id: men.id, parent_category: null },
    });
    expect((await t.admin.get("/admin/product-categories/men")).json().product_category.id).toBe(men.id);

    const top = (await t.admin.get("/admin/product-categories?parent_category_id=null")).json();
    expect(top.product_categories.map((c: { id: string }) => c.id)).toEqual([men.id]);
    const children = (await t.admin.get(`/admin/product-categories?parent_category_id=${men.id}`)).json();
    expect(children.product_categories.map((c: { id: string }) => c.id)).toEqual([shoes.id, shirts.id]);
    expect((await t.admin.get("/admin/product-categories?is_active=true")).json().count).toBe(2);
    expect((await t.admin.get("/admin/product-categories?q=shirt")).json().count).toBe(2);

    // Products filtered by a category, with or without its descendants.
    const tee = (
      await t.admin.post("/admin/products", {
        title: "Tee",
        categories: [{ id: tees.id }],
        options: [{ title: "Size", values: ["S"] }],
      })
    ).json().product;
    expect((await t.admin.get(`/admin/products?category_id=${shirts.id}`)).json().count).toBe(0);
    expect(
      (await t.admin.get(`/admin/products?category_id=${shirts.id}&include_descendants_tree=true`))
        .json()
        .products.map((p: { id: string }) => p.id),
    ).toEqual([tee.id]);

    // Re-rank among siblings, then move a subtree; a cycle is refused.
    const reranked = await t.admin.post(`/admin/product-categories/${shirts.id}`, { rank: 0 });
    expect(reranked.json().product_category.rank).toBe(0);
    expect((await t.admin.get(`/admin/product-categories/${shoes.id}`)).json().product_category.rank).toBe(1);
    const cycle = await t.admin.post(`/admin/product-categories/${men.id}`, { parent_category_id: tees.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().type).toBe("invalid_data");
    const moved = await t.admin.post(`/admin/product-categories/${shirts.id}`, { parent_category_id: null });
    expect(moved.json().product_category).toMatchObject({ parent_category_id: null, rank: 1 });
    expect((await t.admin.get(`/admin/product-categories/${shoes.id}`)).json().product_category.rank).toBe(0);
    expect(await ancestry(tees.id)).toMatchObject({ id: shirts.id, parent_category: null });
    expect(
      (await t.admin.get(`/admin/products?category_id=${shirts.id}&include_descendants_tree=true`)).json().count,
    ).toBe(1);

    // A category with children cannot be deleted; a leaf can, and leaves its products.
    expect((await t.admin.delete(`/admin/product-categories/${shirts.id}`)).statusCode).toBe(400);
    expect((await t.admin.delete(`/admin/product-categories/${tees.id}`)).json()).toEqual({
      id: tees.id,
      object: "product_category",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/product-categories/${tees.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/products/${tee.id}`)).json().product.categories).toEqual([]);
  });

  it("generates the handle when Medusa's form sends it blank; an update may not blank it", async () => {
    const res = await t.admin.post("/admin/product-categories", { name: "Rain Gear", handle: "" });
    expect(res.statusCode).toBe(200);
    const category = res.json().product_category;
    expect(category.handle).toBe("rain-gear");
    expect((await t.admin.post(`/admin/product-categories/${category.id}`, { handle: "" })).statusCode).toBe(400);
  });

  it("rejects bad input, unknown parents and taken handles", async () => {
    const before = (await t.admin.get("/admin/product-categories")).json().count;
    for (const body of [
      {},
      { name: "" },
      { name: 3 },
      { name: "x", rank: -1 },
      { name: "x", handle: "No Spaces" },
      { name: "x", other: 1 },
    ]) {
      const res = await t.admin.post("/admin/product-categories", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const orphan = await t.admin.post("/admin/product-categories", {
      name: "Orphan",
      parent_category_id: "pcat_missing",
    });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().message).toContain("pcat_missing");
    await create({ name: "Unique", handle: "unique" });
    expect((await t.admin.post("/admin/product-categories", { name: "Again", handle: "unique" })).statusCode).toBe(409);
    expect((await t.admin.get("/admin/product-categories")).json().count).toBe(before + 1);
    expect((await t.admin.post("/admin/product-categories/pcat_missing", { name: "x" })).statusCode).toBe(404);
    expect((await t.admin.get("/admin/product-categories?include_descendants_tree=maybe")).statusCode).toBe(400);
  });
});
